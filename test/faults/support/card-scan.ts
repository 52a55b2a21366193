import { asciiDigits } from '../../support/card-numbers.js';

/**
 * Finds card numbers in text: runs of 13 to 19 digits (single spaces or dashes allowed between
 * them) that pass the Luhn check, bounded by anything but a letter or digit, so a digit run
 * inside a hex id or a longer number is not taken for one. What a dump, a log or an answer may
 * never hold.
 */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

// Not after a letter, digit or decimal point (the fraction of 7.1595429758), not before a letter or digit.
const RUN = /(?<![0-9A-Za-z]|\d\.)\d(?:[ -]?\d){12,18}(?![0-9A-Za-z]|[ -]\d)/g;

/**
 * The text as a reader sees it: NFKC turns full-width, mathematical and other compatibility digits
 * into 0-9 (and digits of other scripts are read as 0-9); format characters (zero-width spaces, joiners, soft hyphens, bidi marks) and combining
 * marks (a keycap's) show as nothing, so they are dropped.
 */
export function visibleText(text: string): string {
  return /[^\x00-\x7f]/.test(text) ? asciiDigits(text.normalize('NFKC').replace(/[\p{Cf}\p{M}]/gu, '')) : text;
}

/** Every card-number-like run in the text (as written once normalised, separators kept). */
export function cardNumbersIn(raw: string): string[] {
  const text = visibleText(raw);
  const found: string[] = [];
  for (const match of text.matchAll(RUN)) {
    const digits = match[0].replace(/[ -]/g, '');
    // A run of one repeated digit (0000000000000) is padding, not a card.
    if (luhnValid(digits) && !/^(\d)\1+$/.test(digits)) found.push(match[0]);
  }
  return found;
}

/** First six and last four digits, as the gateway itself masks: safe to print in a report. */
export function masked(cardNumber: string): string {
  const digits = cardNumber.replace(/[ -]/g, '');
  return `${digits.slice(0, 6)}${'*'.repeat(Math.max(0, digits.length - 10))}${digits.slice(-4)}`;
}

/**
 * A JSON log line without its numeric values ("time":1795478021123, "responseTime":7.15): a card
 * number reaches a log as text, and a 13-digit epoch in milliseconds passes the Luhn check one
 * time in ten.
 */
export function withoutJsonNumbers(line: string): string {
  return line.replace(/(:\s*)-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=\s*[,}\]])/g, '$10');
}

/**
 * Which of the given numbers the text holds in any form: digits split by runs of up to four other
 * characters that are not letters (`.` `/` `_` `,` `+` `*` `:` spaces, and their full-width forms),
 * zero-width characters or combining marks between them, compatibility digits. Five or more
 * characters in a row (a mask's stars) or a letter end a number.
 */
export function hiddenNumbersIn(raw: string, numbers: readonly string[]): string[] {
  const pieces = visibleText(raw)
    .split(/[^0-9]{5,}|\p{L}/u)
    .map((piece) => piece.replace(/[^0-9]/g, ''))
    .filter((piece) => piece.length >= 13);
  return numbers.filter((number) => pieces.some((piece) => piece.includes(number)));
}
