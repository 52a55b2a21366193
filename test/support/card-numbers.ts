import fc from 'fast-check';

/** Generators of card numbers hidden in text, shared by the unit and integration property tests. */

/** The check digit that makes body + digit Luhn-valid. */
export function luhnComplete(body: string): string {
  let sum = 0;
  for (let index = 0; index < body.length; index += 1) {
    let digit = body.charCodeAt(body.length - 1 - index) - 48;
    if (index % 2 === 0) digit = digit > 4 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return body + String((10 - (sum % 10)) % 10);
}

/** A Luhn-valid number of 13 to 19 digits not beginning with 0. */
export const cardNumber = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 13, max: 19 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }))
  .map(([first, length, rest]) => luhnComplete(`${first}${rest.slice(0, length - 2).join('')}`));

/** The number as people write it: in one piece, or in groups split by single spaces or dashes. */
export const writtenCardNumber = fc
  .tuple(cardNumber, fc.array(fc.constantFrom('', '', ' ', '-'), { minLength: 19, maxLength: 19 }))
  .map(([number, separators]) => ({ number, written: [...number].map((digit, index) => (index === 0 ? digit : separators[index]! + digit)).join('') }));

/** Free text without digits at its edges, so the number stays a run of its own. */
export const words = (maxLength: number) => fc.string({ unit: fc.constantFrom(...'abcXYZ .,/#:_éß'), maxLength });

/** Any run of 12 or more digits, however split by spaces or dashes: what a display must never hold. */
export const LONG_DIGIT_RUN = /[0-9](?:[\s\p{Pd}]*[0-9]){11,}/u;

const fullWidthDigits = (text: string) => text.replace(/[0-9]/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
const inGroups = (number: string, separator: string) => number.match(/.{1,4}/g)!.join(separator);

/**
 * Every way of writing a card number that issue 29 found passing: other separators, invisible
 * characters between the digits, compatibility digits. Each is [form, written].
 */
export function separatorForms(number: string): [form: string, written: string][] {
  return [
    ['dots', inGroups(number, '.')],
    ['slashes', inGroups(number, '/')],
    ['underscores', inGroups(number, '_')],
    ['commas', inGroups(number, ',')],
    ['plus signs', inGroups(number, '+')],
    ['asterisks', inGroups(number, '*')],
    ['comma and space', inGroups(number, ', ')],
    ['spaced slash', inGroups(number, ' / ')],
    ['colons', inGroups(number, ':')],
    ['zero-width space U+200B', inGroups(number, '\u200b')],
    ['zero-width space between every digit', [...number].join('\u200b')],
    ['zero-width joiner U+200D', inGroups(number, '\u200d')],
    ['word joiner U+2060', inGroups(number, '\u2060')],
    ['soft hyphen U+00AD', inGroups(number, '\u00ad')],
    ['byte order mark U+FEFF', inGroups(number, '\ufeff')],
    ['left-to-right mark U+200E', inGroups(number, '\u200e')],
    ['full-width digits', fullWidthDigits(number)],
    ['full-width digits and ideographic spaces', fullWidthDigits(inGroups(number, '\u3000'))],
    ['full-width digits and full-width dots', fullWidthDigits(inGroups(number, '\uff0e'))],
    ['mathematical bold digits', [...number].map((digit) => String.fromCodePoint(0x1d7ce + Number(digit))).join('')],
    ['keycap digits', [...number].map((digit) => `${digit}\ufe0f\u20e3`).join('')],
    ['Arabic-Indic digits', [...number].map((digit) => String.fromCharCode(0x0660 + Number(digit))).join('')],
    ['Devanagari digits in dots', inGroups([...number].map((digit) => String.fromCharCode(0x0966 + Number(digit))).join(''), '.')],
  ];
}

/** Decimal digits of any script as 0-9 (Unicode lays each script's out as a run of ten). */
export function asciiDigits(text: string): string {
  return text.replace(/(?![0-9])\p{Nd}/gu, (digit) => {
    const code = digit.codePointAt(0)!;
    let zero = code;
    while (/^\p{Nd}$/u.test(String.fromCodePoint(zero - 1))) zero -= 1;
    return String((code - zero) % 10);
  });
}

/** The digits a text shows once normalised (full-width, Arabic-Indic … as 0-9), everything else dropped: where a number hides. */
export const normalisedDigits = (text: string) => asciiDigits(text.normalize('NFKC')).replace(/[^0-9]/g, '');
