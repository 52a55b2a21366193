/**
 * The card number's rules as the secure number frame applies them while the shopper types: which
 * of the merchant's brands the number belongs to, whether it is complete and passes Luhn, and how
 * it is grouped on screen. The gateway's own card table (src/domain/card.ts) is the one source of
 * brands, so the widget never accepts a number the API would refuse for its brand.
 */
import creditCardType from 'credit-card-type';
import { cardBrand, detectCardBrand, detectedTypes, isLuhnValid } from '../../../src/domain/card.js';

export const MAX_CARD_DIGITS = 19;
const MIN_CARD_DIGITS = 12;

/** Only the digits of what was typed or pasted (spaces, dashes and dots are the shopper's grouping). */
export function digitsOf(input: string): string {
  return input.replace(/\D/g, '').slice(0, MAX_CARD_DIGITS);
}

/**
 * The brand among the merchant's `data-brands` whose number ranges hold the number (the first one
 * listed wins: VISA before VISADEBIT). `detected` is what the ranges say even when the merchant
 * does not accept it, so the shopper can be told "this card is not accepted".
 */
export function brandOf(digits: string, accepted: readonly string[]): { brand: string | undefined; detected: string | undefined } {
  if (digits === '') return { brand: undefined, detected: undefined };
  const types = detectedTypes(digits);
  const brand = accepted.find((name) => cardBrand(name)?.detectedAs.some((type) => types.includes(type)));
  return { brand, detected: brand ?? detectCardBrand(digits) };
}

/** Lengths a brand issues (credit-card-type's table), else any length from 12 to 19. */
export function lengthsOf(digits: string, brand: string | undefined): readonly number[] {
  const entry = brand ? cardBrand(brand) : undefined;
  const type = entry?.detectedAs.find((name) => detectedTypes(digits).includes(name));
  return type ? creditCardType.getTypeInfo(type).lengths : range(MIN_CARD_DIGITS, MAX_CARD_DIGITS);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

export type NumberState = 'empty' | 'incomplete' | 'invalid' | 'unsupported' | 'valid';

/** What the number frame tells the merchant page: never the digits, only this verdict. */
export function numberState(digits: string, accepted: readonly string[]): NumberState {
  if (digits === '') return 'empty';
  const { brand, detected } = brandOf(digits, accepted);
  if (!brand && detected) return 'unsupported';
  const lengths = lengthsOf(digits, brand);
  if (digits.length < Math.min(...lengths)) return 'incomplete';
  if (!lengths.includes(digits.length)) return 'invalid';
  const luhnChecked = brand ? cardBrand(brand)?.luhnChecked ?? true : true;
  return !luhnChecked || isLuhnValid(digits) ? 'valid' : 'invalid';
}

/** Digits of the verification value the brand prints: 4 for AMEX, else 3. */
export function cvvLengthOf(brand: string | undefined): 3 | 4 {
  return (brand && cardBrand(brand)?.cvvLength) || 3;
}

/** Whether the brand's payments may go without a CVV (MAESTRO, UNIONPAY and local schemes). */
export function cvvOptional(brand: string | undefined): boolean {
  return brand !== undefined && cardBrand(brand)?.cvv === 'optional';
}

export type CvvState = 'empty' | 'incomplete' | 'valid';

export function cvvState(cvv: string, brand: string | undefined): CvvState {
  if (cvv === '') return 'empty';
  return cvv.length === cvvLengthOf(brand) ? 'valid' : 'incomplete';
}

/** Where the spaces go: 4-6-5 for AMEX and 14-digit DINERS, 4-4-4-4-3 for the rest. */
function groupsOf(brand: string | undefined, length: number): readonly number[] {
  if (brand === 'AMEX' || (brand === 'DINERS' && length === 14)) return [4, 6, 5];
  return [4, 4, 4, 4, 3];
}

/** The digits with a space between groups ('4200 0000 0000 0000'); unchanged when formatting is off. */
export function formatCardNumber(digits: string, brand: string | undefined, formatting = true): string {
  if (!formatting) return digits;
  const parts: string[] = [];
  let start = 0;
  for (const size of groupsOf(brand, digits.length)) {
    if (start >= digits.length) break;
    parts.push(digits.slice(start, start + size));
    start += size;
  }
  if (start < digits.length) parts.push(digits.slice(start));
  return parts.join(' ');
}

/**
 * The caret's place in the formatted text: after the same number of digits as it was before
 * reformatting, so typing or deleting in the middle of the number keeps the caret where it was.
 */
export function caretAfterFormat(formatted: string, digitsBeforeCaret: number): number {
  if (digitsBeforeCaret <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < formatted.length; index += 1) {
    if (/\d/.test(formatted[index]!)) seen += 1;
    if (seen === digitsBeforeCaret) return index + 1;
  }
  return formatted.length;
}
