import type { WidgetLocale } from '../rules/locale.js';
import { EAST } from './east.js';
import type { Labels } from './keys.js';
import { NORTH_CENTRAL } from './north-central.js';
import { WEST } from './west.js';

const ALL: Readonly<Record<string, Labels>> = { ...WEST, ...NORTH_CENTRAL, ...EAST };

/** The texts of one of the 25 languages (every one is present: test/unit/widget checks). */
export function labelsOf(locale: WidgetLocale): Labels {
  return ALL[locale] ?? ALL['en']!;
}
