import { convert, feeFor, type FeeRate } from '../../../domain/settlement/money.js';
import type { PaymentType } from '../../../domain/transaction.js';

/**
 * The simulated acquirer's settlement rules (docs/settlement.md, "The test system"). Pure and
 * deterministic: the same stored transactions give the same records, ids included, every time.
 */

/** Settled the day after the transaction (T+1), charged back the day after that, reversed the day after. */
export const SETTLEMENT_DELAY_DAYS = 1;
export const CHARGEBACK_DELAY_DAYS = 2;
export const REVERSAL_DELAY_DAYS = 3;

/** Without a row in settlement_fees: 0.10 plus 1.50 %, settled in EUR. */
export const DEFAULT_FEE_RATE: FeeRate = Object.freeze({ fixedMinor: 10n, rateBasisPoints: 150 });
export const DEFAULT_SETTLEMENT_CURRENCY = 'EUR';
/** Each merchant's batch carries one fee line (PaymentType BATCH) of this amount. */
export const BATCH_FEE_MINOR = 100n;

/** Cents that make the simulated acquirer fail the settlement, charge back, or charge back and reverse. */
export const FAILED_SETTLEMENT_CENTS = 13n;
export const CHARGEBACK_CENTS = 66n;
export const CHARGEBACK_AND_REVERSAL_CENTS = 67n;
/** The reason of chargebacks the amount triggers: "Transaction Not Recognized By Cardholder". */
export const DEFAULT_CHARGEBACK_CODE = '000.100.222';
/** Where the simulator keeps a payment's chargebackResultCode: among its own references. */
export const CHARGEBACK_REFERENCE = 'SimulatedChargebackCode';

/** Units of EUR per unit of each currency, in millionths; other currencies settle at par. */
const EUR_MICROS: Readonly<Record<string, bigint>> = {
  EUR: 1_000_000n, USD: 920_000n, GBP: 1_170_000n, CHF: 1_040_000n, JPY: 6_200n, SEK: 87_000n, PLN: 232_000n, AUD: 610_000n, CAD: 680_000n,
};

/** A stored transaction as the simulator's settlement reads it (through its read port). */
export interface SettleableTransaction {
  readonly id: string;
  readonly merchantId: string;
  readonly paymentType: PaymentType;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly createdAt: Date;
  readonly merchantTransactionId: string | null;
  readonly connectorReferences: Readonly<Record<string, string>>;
  /** The merchant's row of settlement_fees, if any. */
  readonly feeRate: FeeRate | null;
  readonly settlementCurrency: string | null;
}

const SETTLED_TYPES: ReadonlySet<PaymentType> = new Set(['DB', 'CD', 'CP', 'RF']);
const CHARGEABLE_TYPES: ReadonlySet<PaymentType> = new Set(['DB', 'CP']);

export function isSettled(t: SettleableTransaction): boolean {
  return SETTLED_TYPES.has(t.paymentType);
}

/** The reason code of the chargeback this payment will get, or null. */
export function chargebackCodeOf(t: SettleableTransaction): string | null {
  if (!CHARGEABLE_TYPES.has(t.paymentType)) return null;
  const asked = t.connectorReferences[CHARGEBACK_REFERENCE];
  if (asked !== undefined) return asked;
  const cents = t.amountMinor % 100n;
  return cents === CHARGEBACK_CENTS || cents === CHARGEBACK_AND_REVERSAL_CENTS ? DEFAULT_CHARGEBACK_CODE : null;
}

export function isReversedChargeback(t: SettleableTransaction): boolean {
  return chargebackCodeOf(t) !== null && t.amountMinor % 100n === CHARGEBACK_AND_REVERSAL_CENTS;
}

export function settlementFails(t: SettleableTransaction): boolean {
  return t.amountMinor % 100n === FAILED_SETTLEMENT_CENTS;
}

/** Settlement currency per transaction currency, six decimals at most ("1" for the same currency). */
export function fxRate(from: string, to: string): string {
  if (from === to) return '1';
  const micros = ((EUR_MICROS[from] ?? 1_000_000n) * 1_000_000n * 2n + (EUR_MICROS[to] ?? 1_000_000n)) / (2n * (EUR_MICROS[to] ?? 1_000_000n));
  const text = `${micros / 1_000_000n}.${(micros % 1_000_000n).toString().padStart(6, '0')}`;
  return text.replace(/0+$/, '').replace(/\.$/, '');
}

export interface SettledMoney {
  readonly settlementCurrency: string;
  readonly fxRate: string;
  readonly settlementAmountMinor: bigint;
  readonly feeMinor: bigint;
}

/** What settling the transaction's amount yields: converted amount and fee, in the merchant's settlement currency. */
export function settledMoney(t: SettleableTransaction, withFee: boolean): SettledMoney {
  const settlementCurrency = t.settlementCurrency ?? DEFAULT_SETTLEMENT_CURRENCY;
  const rate = fxRate(t.currency, settlementCurrency);
  const settlementAmountMinor = convert(t.amountMinor, rate);
  const feeMinor = withFee ? feeFor(settlementAmountMinor, t.feeRate ?? DEFAULT_FEE_RATE) : 0n;
  return { settlementCurrency, fxRate: rate, settlementAmountMinor, feeMinor };
}
