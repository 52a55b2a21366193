import type { TransactionState } from '../transaction.js';

/**
 * What a chargeback does to the payment it takes money back from: the money is gone, so it can no
 * longer be refunded. The chargeback counts against the refundable amount like a refund does, up
 * to what is still refundable (a payment refunded in full and then charged back gives nothing more).
 */
export interface RefundTotals {
  readonly refundedMinor: bigint;
  readonly refundClosed: boolean;
}

/** The parent's totals after a chargeback of `amountMinor`, and how much of it the refundable amount took. */
export function afterChargeback(parent: TransactionState, amountMinor: bigint): RefundTotals & { readonly takenMinor: bigint } {
  const refundable = parent.amountMinor - parent.refundedMinor;
  const takenMinor = amountMinor < refundable ? amountMinor : refundable > 0n ? refundable : 0n;
  const refundedMinor = parent.refundedMinor + takenMinor;
  return { refundedMinor, refundClosed: parent.refundClosed || refundedMinor === parent.amountMinor, takenMinor };
}

/**
 * The parent's totals after a chargeback reversal gives `amountMinor` back to the merchant: it may
 * be refunded again, unless a refund with sequence=FINAL closed it.
 */
export function afterChargebackReversal(parent: TransactionState, amountMinor: bigint, finalRefundStands: boolean): RefundTotals {
  const refundedMinor = parent.refundedMinor > amountMinor ? parent.refundedMinor - amountMinor : 0n;
  return { refundedMinor, refundClosed: finalRefundStands || refundedMinor === parent.amountMinor };
}
