import { detectedTypes, maskCardNumber } from './card.js';
import { normaliseDigitsText } from './digits-text.js';

/**
 * Card numbers hidden in text: recognising one in a free-text field (so it is refused, never
 * stored), and masking digit runs wherever text is shown back (error values, log lines).
 *
 * Text is first normalised (domain/digits-text.ts: NFKC, so full-width and other compatibility
 * digits become 0-9, and format characters such as U+200B and combining marks dropped). Digit groups are then joined
 * by any run of spaces and dashes, as people write card numbers, and by a short run of any other
 * character that is neither a letter nor a digit (`.` `/` `_` `,` `+` `*` …), as people hide them.
 * A number joined only by spaces and dashes is a card number when Luhn-valid; one that needed
 * another separator must also look issued (a known brand's range and one of the lengths it issues),
 * which keeps dates, times, amounts and lists of numbers from being taken for card numbers.
 */

/** ISO/IEC 7812 numbers: 13 to 19 digits. */
export const CARD_NUMBER_MIN_DIGITS = 13;
export const CARD_NUMBER_MAX_DIGITS = 19;
/** As the Luhn threshold of a field: only numbers that look issued are refused there. */
export const ISSUED_NUMBERS_ONLY = CARD_NUMBER_MAX_DIGITS + 1;
/** Displays mask every run from this many digits, Luhn-valid or not. */
const MASKED_FROM_DIGITS = 12;
/** Separators other than spaces and dashes join two groups only in short runs (", ", " / ", "*"). */
export const MAX_OTHER_SEPARATOR_RUN = 4;

/**
 * The lengths each range's brand issues its cards in today (credit-card-type also admits the
 * lengths a scheme merely allows: 12 to 19 for MAESTRO, 18 for VISA). Kept narrow on purpose: the
 * exempt phone and identity-document fields hold real 13-digit, 14-digit and 18-digit numbers.
 */
const ISSUED_LENGTHS: Readonly<Record<string, readonly number[]>> = {
  visa: [16, 19],
  mastercard: [16],
  'american-express': [15],
  'diners-club': [14, 16],
  discover: [16, 19],
  jcb: [16, 19],
  unionpay: [16, 19],
  maestro: [16, 19],
  mir: [16, 19],
  elo: [16],
  hipercard: [16],
};

/** In a known brand's range and of a length that brand issues (the Luhn check is the caller's). */
function inIssuedRange(digits: string): boolean {
  return detectedTypes(digits).some((type) => ISSUED_LENGTHS[type]?.includes(digits.length) === true);
}

/** Whether an eight-digit prefix lies in the range of a brand with issued lengths. */
function inAnyRange(prefix: string): boolean {
  return detectedTypes(prefix).some((type) => ISSUED_LENGTHS[type] !== undefined);
}

/** Mod-10 check of digits[start, end), without copying: a long value has many candidate numbers. */
function luhnValidAt(digits: string, start: number, end: number): boolean {
  let sum = 0;
  let double = false;
  for (let index = end - 1; index >= start; index -= 1) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) digit = digit > 4 ? digit * 2 - 9 : digit * 2;
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

const isDigit = (code: number) => code >= 48 && code <= 57;
const isAsciiLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
/** Space, tab, line breaks and the hyphen-minus: the ASCII part of [\s\p{Pd}], without a regex. */
const isAsciiSpaceOrDash = (code: number) => code === 32 || (code >= 9 && code <= 13) || code === 45;
const SPACE_OR_DASH = /^[\s\p{Pd}]$/u;
const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;

/** A digit group of a chain, where it stands in the text and how it is joined to the group before. */
interface Group {
  readonly digits: string;
  readonly start: number;
  readonly end: number;
  /** Joined to the previous group by spaces and dashes only (true for a chain's first group). */
  readonly plainJoin: boolean;
}

/** Whether text[from] starts a run that joins two digit groups, and where the run ends. */
function separatorRun(text: string, from: number): { end: number; plain: boolean } | undefined {
  let index = from;
  let plain = true;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (isDigit(code) || isAsciiLetter(code)) break;
    if (code <= 127) plain &&= isAsciiSpaceOrDash(code);
    else {
      const char = text[index]!;
      if (LETTER_OR_NUMBER.test(char)) break;
      plain &&= SPACE_OR_DASH.test(char);
    }
    index += 1;
  }
  if (index === from || index >= text.length || !isDigit(text.charCodeAt(index))) return undefined;
  if (!plain && index - from > MAX_OTHER_SEPARATOR_RUN) return undefined;
  return { end: index, plain };
}

/** Groups of digits joined by separator runs, e.g. "4111 1111.1111/1111" → one chain of four groups. */
function digitChains(text: string): Group[][] {
  const chains: Group[][] = [];
  let chain: Group[] = [];
  let plainJoin = true;
  let index = 0;
  while (index < text.length) {
    if (!isDigit(text.charCodeAt(index))) {
      index += 1;
      continue;
    }
    const start = index;
    while (index < text.length && isDigit(text.charCodeAt(index))) index += 1;
    chain.push({ digits: text.slice(start, index), start, end: index, plainJoin });
    const run = separatorRun(text, index);
    if (run) {
      index = run.end;
      plainJoin = run.plain;
    } else {
      chains.push(chain);
      chain = [];
      plainJoin = true;
    }
  }
  return chains;
}

interface Found {
  readonly start: number;
  readonly end: number;
}

/**
 * Card numbers of a chain, as spans over whole groups. A number beginning with 0 is none (no issuer
 * has major industry identifier 0), which spares zero-padded references; a group is never split,
 * else every long reference would contain one.
 */
function cardNumbersOfChain(groups: readonly Group[], luhnFromDigits: number, firstOnly: boolean): Found[] {
  const found: Found[] = [];
  const digits = groups.map((group) => group.digits).join('');
  const offsets: number[] = [];
  let offset = 0;
  for (const group of groups) {
    offsets.push(offset);
    offset += group.digits.length;
  }
  for (let first = 0; first < groups.length; first += 1) {
    if (groups[first]!.digits.startsWith('0')) continue;
    const start = offsets[first]!;
    if (digits.length - start < CARD_NUMBER_MIN_DIGITS) break;
    // The range depends on the first eight digits only: outside every brand's, only the Luhn rule for plain joins is left.
    const ranged = inAnyRange(digits.slice(start, start + 8));
    let plain = true;
    for (let last = first; last < groups.length; last += 1) {
      if (last > first) plain &&= groups[last]!.plainJoin;
      if (!plain && !ranged) break;
      const end = offsets[last]! + groups[last]!.digits.length;
      const length = end - start;
      if (length > CARD_NUMBER_MAX_DIGITS) break;
      if (length < CARD_NUMBER_MIN_DIGITS || !luhnValidAt(digits, start, end)) continue;
      if ((plain && length >= luhnFromDigits) || (ranged && inIssuedRange(digits.slice(start, end)))) {
        found.push({ start: groups[first]!.start, end: groups[last]!.end });
        if (firstOnly) return found;
      }
    }
  }
  return found;
}

/**
 * Whether the text holds a card number: a Luhn-valid number of `luhnFromDigits` to 19 digits
 * joined by spaces or dashes, or a Luhn-valid number that looks issued (a known brand's range and
 * one of its issued lengths: 378282246310005, not 4915112345678) however it is joined. Fields that hold long numbers by nature raise `luhnFromDigits` (phones: 16) or set it to
 * ISSUED_NUMBERS_ONLY (identity documents): a card number of a known range still does not pass.
 */
export function containsCardNumber(text: string, luhnFromDigits = CARD_NUMBER_MIN_DIGITS): boolean {
  // Most values have too few digits to be worth splitting: counted in one pass, normalised only when not ASCII.
  const normalised = normaliseDigitsText(text, CARD_NUMBER_MIN_DIGITS);
  if (normalised === undefined) return false;
  return digitChains(normalised).some((groups) => cardNumbersOfChain(groups, luhnFromDigits, true).length > 0);
}

/**
 * Spans to mask: every run of 12 or more digits joined by spaces and dashes (Luhn-valid or not: a
 * card number cut short or mistyped is still one; the run is unbounded and masked whole, so no cut
 * point can leave 12 digits side by side), and every card number joined by other separators.
 */
function maskedSpans(text: string): Found[] {
  const spans: Found[] = [];
  for (const groups of digitChains(text)) {
    let runStart = 0;
    let digits = 0;
    for (let index = 0; index <= groups.length; index += 1) {
      if (index === groups.length || (index > 0 && !groups[index]!.plainJoin)) {
        if (digits >= MASKED_FROM_DIGITS) spans.push({ start: groups[runStart]!.start, end: groups[index - 1]!.end });
        runStart = index;
        digits = 0;
      }
      if (index < groups.length) digits += groups[index]!.digits.length;
    }
    spans.push(...cardNumbersOfChain(groups, CARD_NUMBER_MIN_DIGITS, false));
  }
  return mergeSpans(spans);
}

function mergeSpans(spans: Found[]): Found[] {
  const sorted = spans.sort((left, right) => left.start - right.start);
  const merged: Found[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, span.end) };
    else merged.push(span);
  }
  return merged;
}

/**
 * Every run of 12 or more digits, and every card number however written, becomes first six, stars,
 * last four. Text with too few digits is returned as it came; text that needed normalising is
 * shown normalised (full-width digits as 0-9, format characters gone).
 */
export function maskDigitRuns(text: string): string {
  const normalised = normaliseDigitsText(text, MASKED_FROM_DIGITS);
  if (normalised === undefined) return text;
  const spans = maskedSpans(normalised);
  if (spans.length === 0) return text;
  let shown = '';
  let from = 0;
  for (const span of spans) {
    const digits = normalised.slice(span.start, span.end).replace(/[^0-9]/g, '');
    shown += normalised.slice(from, span.start) + maskCardNumber(digits);
    from = span.end;
  }
  return shown + normalised.slice(from);
}

/** Whether maskDigitRuns would mask anything. */
export function hasDigitRun(text: string): boolean {
  const normalised = normaliseDigitsText(text, MASKED_FROM_DIGITS);
  return normalised !== undefined && maskedSpans(normalised).length > 0;
}
