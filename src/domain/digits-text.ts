/**
 * Text as a search for digits must read it. NFKC turns full-width (４), mathematical (𝟒),
 * circled (④) and superscript (⁴) digits into 0-9, and full-width or ideographic spaces, dots and
 * dashes into their plain forms; format characters (zero-width space and joiners, bidi marks, soft
 * hyphen, word joiner, BOM: \p{Cf}) and combining marks (variation selectors, the keycap of 4️⃣: \p{M})
 * are dropped, since they show as nothing between two digits. Decimal digits of other scripts, which
 * NFKC keeps (Arabic-Indic ٤, Devanagari ४ …), are read as 0-9 too.
 */

const INVISIBLE = /[\p{Cf}\p{M}]/gu;
const OTHER_DECIMAL_DIGIT = /(?![0-9])\p{Nd}/gu;
const DECIMAL_DIGIT = /^\p{Nd}$/u;

/** Unicode lays out every script's decimal digits as runs of ten, zero to nine: the value is the place in the run. */
function decimalValue(digit: string): string {
  const code = digit.codePointAt(0)!;
  let zero = code;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(zero - 1))) zero -= 1;
  return String((code - zero) % 10);
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/** ASCII digits in the text, counted up to `enough`; -1 when the text has other than ASCII characters. */
function asciiDigits(text: string, enough: number): number {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code > 127) return -1;
    if (isDigit(code) && count < enough) count += 1;
  }
  return count;
}

/**
 * The text normalised, or undefined when it holds fewer than `enoughDigits` digits even then.
 * Plain ASCII text (almost every value on the payment path) is read once and only counted: NFKC
 * leaves it as it is, so only text with other characters pays for normalising.
 */
export function normaliseDigitsText(text: string, enoughDigits: number): string | undefined {
  const ascii = asciiDigits(text, enoughDigits);
  if (ascii >= 0) return ascii >= enoughDigits ? text : undefined;
  const normalised = text.normalize('NFKC').replace(INVISIBLE, '').replace(OTHER_DECIMAL_DIGIT, decimalValue);
  let count = 0;
  for (let index = 0; index < normalised.length && count < enoughDigits; index += 1) if (isDigit(normalised.charCodeAt(index))) count += 1;
  return count >= enoughDigits ? normalised : undefined;
}
