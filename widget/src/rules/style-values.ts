/**
 * The only style values the widget passes on: a merchant's theme (wpwlOptions.theme) onto the
 * page's container, and the measured look of the page's controls into the gateway's card frames.
 * A frame trusts nothing in its address (any page may embed it with any fragment), so it applies a
 * value only when it is plainly a colour, a length, a font list or a keyword: no parentheses
 * inside a function, no quotes but a font name's, no url(), no var(), nothing that could load a
 * resource or say more than one value.
 */

export type StyleKind = 'color' | 'length' | 'line' | 'font-family' | 'font-weight' | 'color-scheme';

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const NAMED = /^[a-z]{3,20}$/i;
const COLOR_FUNCTION = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\([a-z0-9 .,%/+-]{1,80}\)$/i;
const LENGTH = /^(?:0|-?(?:\d{1,4}(?:\.\d{1,4})?|\.\d{1,4})(?:px|rem|em|%))$/;
const UNITLESS = /^\d{1,2}(?:\.\d{1,4})?$/;
const FONT_NAME = /^(?:"[\p{L}\p{N} _.-]{1,60}"|'[\p{L}\p{N} _.-]{1,60}'|[\p{L}][\p{L}\p{N} _-]{0,60})$/u;
const FONT_WEIGHT = /^(?:[1-9]\d{0,2}|normal|bold)$/;
const COLOR_SCHEME = /^(?:normal|light|dark|light dark|dark light)$/;
const MAX_FONT_NAMES = 8;

const CHECKS: Readonly<Record<StyleKind, (value: string) => boolean>> = {
  color: (value) => HEX.test(value) || NAMED.test(value) || COLOR_FUNCTION.test(value),
  length: (value) => LENGTH.test(value),
  line: (value) => value === 'normal' || LENGTH.test(value) || UNITLESS.test(value),
  'font-family': (value) => {
    const names = value.split(',').map((name) => name.trim());
    return value.length <= 200 && names.length <= MAX_FONT_NAMES && names.every((name) => FONT_NAME.test(name));
  },
  'font-weight': (value) => FONT_WEIGHT.test(value),
  'color-scheme': (value) => COLOR_SCHEME.test(value),
};

/** The value, trimmed, when it is plainly of its kind; undefined otherwise. */
export function safeStyleValue(kind: StyleKind, value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed !== '' && CHECKS[kind](trimmed) ? trimmed : undefined;
}

/**
 * What the page measures on its controls and a frame may take, with each one's kind. `--wpwl-_error`
 * is the theme's error colour (the frame's text while its field is in error).
 */
export const FRAME_STYLE_KINDS = {
  'font-family': 'font-family',
  'font-size': 'length',
  'font-weight': 'font-weight',
  color: 'color',
  'line-height': 'line',
  'letter-spacing': 'line',
  'background-color': 'color',
  'color-scheme': 'color-scheme',
  '--wpwl-_error': 'color',
} as const satisfies Readonly<Record<string, StyleKind>>;

export type FrameStyleProperty = keyof typeof FRAME_STYLE_KINDS;

/** Only the known properties with safe values: what the page sends and what a frame applies. */
export function safeFrameStyle(style: unknown): Partial<Record<FrameStyleProperty, string>> {
  const safe: Partial<Record<FrameStyleProperty, string>> = {};
  if (typeof style !== 'object' || style === null) return safe;
  for (const [property, kind] of Object.entries(FRAME_STYLE_KINDS) as [FrameStyleProperty, StyleKind][]) {
    const value = safeStyleValue(kind, (style as Record<string, unknown>)[property]);
    if (value !== undefined) safe[property] = value;
  }
  return safe;
}

/** wpwlOptions.theme's names and the CSS variables they set (docs/widget.md, Themes). */
export const THEME_VARIABLES = {
  colorPrimary: ['--wpwl-color-primary', 'color'],
  colorPrimaryText: ['--wpwl-color-primary-text', 'color'],
  colorText: ['--wpwl-color-text', 'color'],
  colorBackground: ['--wpwl-color-background', 'color'],
  colorError: ['--wpwl-color-error', 'color'],
  radius: ['--wpwl-radius', 'length'],
  fontFamily: ['--wpwl-font-family', 'font-family'],
} as const satisfies Readonly<Record<string, readonly [string, StyleKind]>>;

/** wpwlOptions.theme as [variable, value] pairs: known names with safe values only. */
export function themeDeclarations(theme: unknown): [string, string][] {
  if (typeof theme !== 'object' || theme === null) return [];
  const declarations: [string, string][] = [];
  for (const [name, [variable, kind]] of Object.entries(THEME_VARIABLES)) {
    const value = safeStyleValue(kind, (theme as Record<string, unknown>)[name]);
    if (value !== undefined) declarations.push([variable, value]);
  }
  return declarations;
}

export type ColorScheme = 'light' | 'dark';

/** wpwlOptions.colorScheme: 'light' or 'dark' as asked; anything else follows the shopper's preference. */
export function colorSchemeOf(option: unknown, prefersDark: boolean): ColorScheme {
  if (option === 'light' || option === 'dark') return option;
  return prefersDark ? 'dark' : 'light';
}
