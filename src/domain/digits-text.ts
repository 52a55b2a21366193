/**
 * Text as a search for digits must read it. NFKC turns full-width (４), mathematical (𝟒),
 * circled (④) and superscript (⁴) digits into 0-9, and full-width or ideographic spaces, dots and
 * dashes into their plain forms; format characters (zero-width space and joiners, bidi marks, soft
 * hyphen, word joiner, BOM: \p{Cf}) and combining marks (variation selectors, the keycap of 4️⃣: \p{M})
 * are dropped, since they show as nothing between two digits.
 */

const NON_ASCII = /[^\x00-\x7f]/;
const INVISIBLE = /[\p{Cf}\p{M}]/gu;

const isDigit = (code: number) => code >= 48 && code <= 57;

function hasDigits(text: string, enough: number): boolean {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (isDigit(text.charCodeAt(index))) {
      count += 1;
      if (count >= enough) return true;
    }
  }
  return false;
}

/**
 * The text normalised, or undefined when it holds fewer than `enoughDigits` digits even then.
 * Plain ASCII text (almost every value on the payment path) is only counted: NFKC leaves it as it
 * is, so only text with other characters pays for normalising.
 */
export function normaliseDigitsText(text: string, enoughDigits: number): string | undefined {
  const normalised = NON_ASCII.test(text) ? text.normalize('NFKC').replace(INVISIBLE, '') : text;
  return hasDigits(normalised, enoughDigits) ? normalised : undefined;
}
