/**
 * `wpwlOptions.locale`: one of the 25 languages of the specification, in OPPWA's own codes
 * (dk, se, cz, cn, gr rather than ISO's da, sv, cs, zh, el), or a region form of one ('de-AT',
 * 'pt_BR'). The ISO codes are understood too, since merchants pass the browser's language.
 */
import type { LabelKey, Labels } from '../i18n/keys.js';

export const WIDGET_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'dk', 'fi', 'se', 'tr', 'ja', 'sl', 'pt', 'pl', 'cz', 'hu', 'bg', 'ro', 'ru', 'cn', 'gr', 'no', 'sk', 'ar', 'ko'] as const;
export type WidgetLocale = (typeof WIDGET_LOCALES)[number];

const ISO_ALIASES: Readonly<Record<string, WidgetLocale>> = { da: 'dk', sv: 'se', cs: 'cz', zh: 'cn', el: 'gr', nb: 'no', nn: 'no', ja: 'ja', sl: 'sl' };

/** The widget's language for a requested tag; English when the tag names none of the 25. */
export function resolveLocale(requested: unknown): WidgetLocale {
  if (typeof requested !== 'string') return 'en';
  const language = requested.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  if ((WIDGET_LOCALES as readonly string[]).includes(language)) return language as WidgetLocale;
  return ISO_ALIASES[language] ?? 'en';
}

/** The region of a region form ('de-AT' → 'AT'), to preselect a bank country. */
export function regionOf(requested: unknown): string | undefined {
  if (typeof requested !== 'string') return undefined;
  const region = requested.trim().split(/[-_]/)[1];
  return region && /^[a-z]{2}$/i.test(region) ? region.toUpperCase() : undefined;
}

/** The language tag for lang= (ISO, not OPPWA's code): screen readers pick their voice by it. */
export function htmlLang(locale: WidgetLocale): string {
  const iso: Partial<Record<WidgetLocale, string>> = { dk: 'da', se: 'sv', cz: 'cs', cn: 'zh', gr: 'el', no: 'nb' };
  return iso[locale] ?? locale;
}

export function directionOf(locale: WidgetLocale): 'ltr' | 'rtl' {
  return locale === 'ar' ? 'rtl' : 'ltr';
}

/**
 * The locale's texts with the merchant's overrides (`labels`, and OPPWA's separate
 * `errorMessages`) on top; only known keys with string values are taken, so a typo or a number
 * never blanks a label.
 */
export function mergeLabels<T extends Labels>(base: T, ...overrides: unknown[]): T {
  const merged: Record<string, string> = { ...base };
  for (const override of overrides) {
    if (typeof override !== 'object' || override === null) continue;
    for (const [key, value] of Object.entries(override)) {
      if (key in base && typeof value === 'string' && value.trim() !== '') merged[key] = value;
    }
  }
  return merged as unknown as T;
}

/**
 * Where the script fetches its language's texts (GET /v1/widget/texts/{locale}): nowhere for
 * English, which the script carries. `version` (a hash of every text, fixed when the script is
 * built) lets the answer be cached for a year.
 */
export function textsUrl(base: string, locale: WidgetLocale, version: string): string | undefined {
  if (locale === 'en') return undefined;
  return `${base}widget/texts/${locale}${version ? `?v=${encodeURIComponent(version)}` : ''}`;
}

/** The texts of the gateway's answer for `locale`, or undefined when it is another's or no answer (English stays). */
export function textsOfAnswer(body: unknown, locale: WidgetLocale): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  const answer = body as { locale?: unknown; labels?: unknown };
  return answer.locale === locale && typeof answer.labels === 'object' && answer.labels !== null ? answer.labels : undefined;
}

/** `{brand}` and other placeholders of a label, filled with plain text. */
export function fillLabel(label: string, values: Readonly<Record<string, string>>): string {
  return label.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

export type { LabelKey };
