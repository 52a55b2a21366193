import type { WidgetLocale } from '../rules/locale.js';
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
