/** The language of a simulator page: the one asked for, else the browser's, else English. */

export const PAGE_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl'] as const;
export type SupportedLocale = (typeof PAGE_LOCALES)[number];
/** A page language tag; pickLocale only ever returns one of PAGE_LOCALES. */
export type PageLocale = string;

const DEFAULT_LOCALE: SupportedLocale = 'en';

/** Languages written right to left; none of the supported ones yet, but the pages carry dir= for them. */
const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(['ar', 'fa', 'he', 'ur']);

export function isSupportedLocale(locale: string): locale is SupportedLocale {
  return (PAGE_LOCALES as readonly string[]).includes(locale);
}

/** 'de-AT', 'DE_at', ' de ' → 'de'; undefined when the tag names no supported language. */
function supportedLanguageOf(tag: string): SupportedLocale | undefined {
  const language = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isSupportedLocale(language) ? language : undefined;
}

/** Accept-Language ranges by falling quality (RFC 9110, 12.5.4); ties keep the header's order. */
function rangesByQuality(acceptLanguage: string): string[] {
  return acceptLanguage
    .split(',')
    .slice(0, 32)
    .map((part, position) => {
      const [range = '', ...parameters] = part.split(';');
      const quality = parameters.map((parameter) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(parameter)?.[1]).find((value) => value !== undefined);
      return { range: range.trim(), quality: quality === undefined ? 1 : Number(quality), position };
    })
    .filter((entry) => entry.range !== '' && entry.quality > 0)
    .sort((left, right) => right.quality - left.quality || left.position - right.position)
    .map((entry) => entry.range);
}

export function pickLocale(requested: string | undefined, acceptLanguage: string | undefined): PageLocale {
  const asked = requested === undefined ? undefined : supportedLanguageOf(requested);
  if (asked) return asked;
  for (const range of rangesByQuality(acceptLanguage ?? '')) {
    const language = supportedLanguageOf(range);
    if (language) return language;
  }
  return DEFAULT_LOCALE;
}

/** The locale whose messages a page uses: a tag that is not supported falls back to English. */
export function messagesLocale(locale: PageLocale): SupportedLocale {
  return supportedLanguageOf(locale) ?? DEFAULT_LOCALE;
}

export function directionOf(locale: PageLocale): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(locale.toLowerCase().split(/[-_]/)[0] ?? '') ? 'rtl' : 'ltr';
}
