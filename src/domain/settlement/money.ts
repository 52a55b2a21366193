/**
 * Settlement arithmetic in integer minor units and exact decimals: fees and FX conversions never
 * pass through floating point.
 */

export interface FeeRate {
  /** Per transaction, in minor units of the settlement currency. */
  readonly fixedMinor: bigint;
  /** Of the settled amount; 190 = 1.90 %. */
  readonly rateBasisPoints: number;
}

const BASIS_POINTS = 10_000n;

/** a / b rounded half away from zero (b > 0). */
export function divideRounded(a: bigint, b: bigint): bigint {
  const negative = a < 0n;
  const magnitude = negative ? -a : a;
  const rounded = (magnitude * 2n + b) / (2n * b);
  return negative ? -rounded : rounded;
}

/** The acquirer's fee for settling `amountMinor`: fixed part plus the rate, rounded half up. */
export function feeFor(amountMinor: bigint, rate: FeeRate): bigint {
  const magnitude = amountMinor < 0n ? -amountMinor : amountMinor;
  return rate.fixedMinor + divideRounded(magnitude * BigInt(rate.rateBasisPoints), BASIS_POINTS);
}

const RATE_PATTERN = /^(\d{1,7})(?:\.(\d{1,8}))?$/;

/** "0.9234" → 9234n / 10^4; throws on anything that is not a plain positive decimal. */
export function parseRate(rate: string): { readonly units: bigint; readonly scale: bigint } {
  const match = RATE_PATTERN.exec(rate);
  if (!match) throw new RangeError(`not an FX rate: ${JSON.stringify(rate.slice(0, 20))}`);
  const decimals = match[2] ?? '';
  return { units: BigInt(match[1]! + decimals), scale: 10n ** BigInt(decimals.length) };
}

/** `amountMinor` of the transaction currency in the settlement currency at `rate` (settlement per transaction unit). */
export function convert(amountMinor: bigint, rate: string): bigint {
  const { units, scale } = parseRate(rate);
  return divideRounded(amountMinor * units, scale);
}

/** The reconciliation file shows the rate as N13 with two decimals (spec), rounded half up. */
export function rateWithTwoDecimals(rate: string): string {
  const { units, scale } = parseRate(rate);
  const hundredths = divideRounded(units * 100n, scale);
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}`;
}
