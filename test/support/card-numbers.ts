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
