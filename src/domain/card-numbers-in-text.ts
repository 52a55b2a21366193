import { isLuhnValid, maskCardNumber } from './card.js';

/**
 * Card numbers hidden in text: recognising one in a free-text field (so it is refused, never
 * stored), and masking digit runs wherever text is shown back (error values, log lines).
 */

/** ISO/IEC 7812 numbers: 13 to 19 digits. */
export const CARD_NUMBER_MIN_DIGITS = 13;
export const CARD_NUMBER_MAX_DIGITS = 19;

const isDigit = (code: number) => code >= 48 && code <= 57;
/** A space or a dash of any kind: what people put between the groups of a card number. */
const SEPARATOR = /^[\s\p{Pd}]$/u;

/** Groups of digits split by spaces or dashes, e.g. "4111 1111-1111  1111" → four groups. */
function digitChains(text: string): string[][] {
  const chains: string[][] = [];
  let chain: string[] = [];
  let index = 0;
  while (index < text.length) {
    if (!isDigit(text.charCodeAt(index))) {
      index += 1;
      continue;
    }
    const start = index;
    while (index < text.length && isDigit(text.charCodeAt(index))) index += 1;
    chain.push(text.slice(start, index));
    // Any run of separators joins two groups: "4111  1111" is as much a card number as "4111 1111".
    let next = index;
    while (next < text.length && SEPARATOR.test(text[next]!)) next += 1;
    const joined = next > index && next < text.length && isDigit(text.charCodeAt(next));
    if (joined) index = next;
    else {
      chains.push(chain);
      chain = [];
    }
  }
  return chains;
}

/** Digits in the text, counted up to `enough`: most values have too few to be worth splitting. */
function countDigits(text: string, enough: number): number {
  let count = 0;
  for (let index = 0; index < text.length && count < enough; index += 1) if (isDigit(text.charCodeAt(index))) count += 1;
  return count;
}

/**
 * Whether the text holds a Luhn-valid number of `minDigits` to 19 digits made of whole groups of
 * digits (a group is a maximal run of digits; groups may be joined by runs of spaces or dashes).
 * Numbers beginning with 0 are not card numbers (no issuer has major industry identifier 0), which
 * spares zero-padded references. A group is never split: a digit run of 20 or more is not taken
 * for a card number, else every long reference would contain one (displays mask it anyway).
 */
export function containsCardNumber(text: string, minDigits = CARD_NUMBER_MIN_DIGITS): boolean {
  if (countDigits(text, minDigits) < minDigits) return false;
  for (const groups of digitChains(text)) {
    for (let first = 0; first < groups.length; first += 1) {
      if (groups[first]!.startsWith('0')) continue;
      let candidate = '';
      for (let last = first; last < groups.length; last += 1) {
        candidate += groups[last]!;
        if (candidate.length > CARD_NUMBER_MAX_DIGITS) break;
        if (candidate.length >= minDigits && isLuhnValid(candidate)) return true;
      }
    }
  }
  return false;
}

/**
 * Digits joined by any run of spaces and dashes. The separator run is unbounded and a run is
 * masked whole, so no cut point (a chunk of 19, a truncation) can leave 12 digits side by side.
 */
const DIGIT_RUN = /[0-9](?:[\s\p{Pd}]*[0-9]){11,}/gu;

/** Every run of 12 or more digits, Luhn-valid or not, becomes first six, stars, last four. */
export function maskDigitRuns(text: string): string {
  return text.replace(DIGIT_RUN, (run) => maskCardNumber(run.replace(/[^0-9]/g, '')));
}

export function hasDigitRun(text: string): boolean {
  DIGIT_RUN.lastIndex = 0;
  const found = DIGIT_RUN.test(text);
  DIGIT_RUN.lastIndex = 0;
  return found;
}
