/**
 * Wire amounts and minor units. Amounts travel as decimal strings ("92.00") and live in code and
 * in the database as integer hundredths (bigint), whatever the currency's own exponent: the wire
 * format always has at most two decimals, so hundredths represent every wire amount exactly and
 * no floating point ever touches money.
 */

/** How many minor units one wire unit has: the wire format's two decimals, not the currency's. */
export const MINOR_UNITS_PER_UNIT = 100n;

/** Regex source of an amount with up to `integerDigits` digits (N10.N2 → 10) and two decimals. */
export function amountPatternSource(integerDigits: number, decimalsRequired = false): string {
  return decimalsRequired
    ? `^[0-9]{1,${integerDigits}}\\.[0-9]{2}$`
    : `^[0-9]{1,${integerDigits}}(\\.[0-9]{2})?$`;
}

const WIRE_AMOUNT = /^([0-9]+)(?:\.([0-9]{2}))?$/;

/** Minor units of a wire amount, or undefined when the text is no plain decimal amount. */
/** Integer digits whose minor units (below 10^15) a double still holds exactly (2^53 ≈ 9·10^15). */
const EXACT_DOUBLE_DIGITS = 13;

export function tryParseAmount(text: string): bigint | undefined {
  const match = WIRE_AMOUNT.exec(text);
  if (!match) return undefined;
  const units = match[1]!;
  const hundredths = match[2] === undefined ? 0 : Number(match[2]);
  // Integers of up to 15 digits are exact in a double; one BigInt conversion is cheaper than three.
  if (units.length <= EXACT_DOUBLE_DIGITS) return BigInt(Number(units) * 100 + hundredths);
  return BigInt(units) * MINOR_UNITS_PER_UNIT + BigInt(hundredths);
}

/** parseAmount("92.00") → 9200n, exactly; throws on anything that is not a wire amount. */
export function parseAmount(text: string): bigint {
  const minor = tryParseAmount(text);
  if (minor === undefined) throw new RangeError(`not an amount: ${JSON.stringify(text.slice(0, 40))}`);
  return minor;
}

/** formatAmount(9200n) → "92.00"; negative amounts (ledger balances) keep their sign. */
export function formatAmount(minor: bigint): string {
  const negative = minor < 0n;
  const magnitude = negative ? -minor : minor;
  const units = magnitude / MINOR_UNITS_PER_UNIT;
  const hundredths = (magnitude % MINOR_UNITS_PER_UNIT).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${units}.${hundredths}`;
}
