/**
 * Every text of the 25 languages, for the gateway and the build: GET /v1/widget/texts/{locale}
 * answers one language's (src/http/widget/texts-asset.ts, built from this module by
 * src/http/widget/widget-build.ts). The widget's script never imports this module: it carries
 * English alone (english.ts) and fetches the shopper's language before it draws a form.
 */
import { WIDGET_LOCALES, type WidgetLocale } from '../rules/locale.js';
import { DECLINE_TEXTS, type DeclineTexts } from './decline-texts.js';
import { EAST } from './east.js';
import type { Labels } from './keys.js';
import { NORTH_CENTRAL } from './north-central.js';
import { WEST } from './west.js';

const ALL: Readonly<Record<string, Labels>> = { ...WEST, ...NORTH_CENTRAL, ...EAST };

/** Every text the widget shows: the labels of keys.ts and the decline messages of decline-texts.ts. */
export type WidgetLabels = Labels & DeclineTexts;

/** The texts of one of the 25 languages (every one is present: test/unit/widget checks). */
export function labelsOf(locale: WidgetLocale): WidgetLabels {
  return { ...(ALL[locale] ?? ALL['en']!), ...(DECLINE_TEXTS[locale] ?? DECLINE_TEXTS['en']!) };
}

/** Each language's texts, by its code: what the build writes to dist/widget/texts.json. */
export function textsByLocale(): Record<WidgetLocale, WidgetLabels> {
  return Object.fromEntries(WIDGET_LOCALES.map((locale) => [locale, labelsOf(locale)])) as Record<WidgetLocale, WidgetLabels>;
}
