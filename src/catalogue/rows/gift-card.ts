import { defineRows } from '../define.js';
import { multilineText, oneOf, text } from '../formats.js';
import { ACCOUNT_DATA, optional } from '../use.js';
import type { ParameterRow } from '../types.js';

/** Party and order data: gift card. Its number and PIN are secrets like a card's. */

const OCCASIONS = [
  'BIRTHDAY', 'ANNIVERSARY', 'CONGRATULATIONS', 'APRIL_FOOLS_DAY', 'EASTER', 'FATHERS_DAY', 'GRADUATION', 'HOLIDAY',
  'SEASONS_GREETINGS', 'PASSOVER', 'KWANZAA', 'HALLOWEEN', 'MOTHERS_DAY', 'NEW_YEARS_DAY', 'BOSSES_DAY', 'ST_PATRICKS_DAY',
  'SWEETEST_DAY', 'CHRISTMAS', 'BABY_SHOWER', 'THANKSGIVING', 'OTHER', 'VALENTINES_DAY', 'WEDDING', 'SECRETARYS_DAY',
  'CHINESE_NEW_YEAR', 'HANUKKAH', 'CELEBRATE_FALL', 'GRANDPARENTS_DAY', 'INDEPENDENCE_DAY',
];

export const giftCardRows: readonly ParameterRow[] = defineRows({ section: 'Gift card', use: optional(ACCOUNT_DATA) }, [
  ['giftCard.number', text(255, 2), { secret: 'last4', sample: '6006491234567890' }],
  ['giftCard.pin', text(255, 2), { secret: 'full', sample: '4321' }],
  ['giftCard.holder', text(255, 2), { sample: 'Jane Jones' }],
  ['giftCard.message', multilineText(160, 2), { sample: 'Happy birthday' }],
  ['giftCard.type', oneOf(OCCASIONS, 'AN16: BIRTHDAY, ANNIVERSARY, … (29 occasions)')],
]);
