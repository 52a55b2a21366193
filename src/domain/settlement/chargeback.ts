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

/** A chargeback not reversed that took less than its amount: a refund still held part of the payment then. */
export interface ChargebackShortfall {
  /** Its settlement record. */
  readonly recordId: string;
  readonly shortMinor: bigint;
}

/**
 * What becomes free on a payment (a pending refund the acquirer then declines, a chargeback
 * reversed) goes first to the chargebacks that took less than their amount (oldest first, so
 * their reversals give it back), only the rest becomes refundable: a chargeback short of its
 * amount leaves nothing refundable.
 */
export function shareReleasedAmount(shortfalls: readonly ChargebackShortfall[], releasedMinor: bigint): { readonly toChargebacks: readonly { readonly recordId: string; readonly addMinor: bigint }[]; readonly toRefundableMinor: bigint } {
  let rest = releasedMinor;
  const toChargebacks: { recordId: string; addMinor: bigint }[] = [];
  for (const { recordId, shortMinor } of shortfalls) {
    if (rest === 0n) break;
    const addMinor = shortMinor < rest ? shortMinor : rest;
    if (addMinor <= 0n) continue;
    toChargebacks.push({ recordId, addMinor });
    rest -= addMinor;
  }
  return { toChargebacks, toRefundableMinor: rest };
}
