import { MINOR_UNITS_PER_UNIT } from '../money.js';

/** The most integer digits an amount may have (the wire format's N10.N2). */
const MAX_INTEGER_DIGITS = 10;
const TYPED_AMOUNT = new RegExp(`^([0-9]{1,${MAX_INTEGER_DIGITS}})(?:\\.([0-9]{1,2}))?$`);

/**
 * An amount a person typed in major units ("12", "12.5", "12.50") as minor units, exactly: the
 * digits are read as integers, never through floating point. Undefined for anything else (a
 * comma, a sign, three decimals, more than ten integer digits).
 */
export function parseTypedAmount(text: string): bigint | undefined {
  const match = TYPED_AMOUNT.exec(text.trim());
  if (!match) return undefined;
  const hundredths = (match[2] ?? '').padEnd(2, '0');
  return BigInt(match[1]!) * MINOR_UNITS_PER_UNIT + BigInt(hundredths);
}
