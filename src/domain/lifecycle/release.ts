import type { ReferencingPaymentType, TransactionState } from '../transaction.js';

/** A capture, refund or reversal whose connector said no. */
export interface RejectedChild {
  readonly paymentType: ReferencingPaymentType;
  readonly amountMinor: bigint;
}

/**
 * Gives back what an accepted capture, refund or reversal reserved on its parent when the
 * connector then declined it. Closure is derived again from what remains: the limit, the amount
 * used up, or another child with sequence=FINAL that still stands (`finalSiblingStands`).
 */
export function releaseReservation(parent: TransactionState, child: RejectedChild, finalSiblingStands: boolean): TransactionState {
  switch (child.paymentType) {
    case 'CP': {
      const capturedMinor = parent.capturedMinor - child.amountMinor;
      const captureCount = parent.captureCount - 1;
      const limitReached = parent.maxCaptures !== null && captureCount >= parent.maxCaptures;
      const captureClosed = finalSiblingStands || limitReached || capturedMinor === parent.amountMinor || parent.reversedAt !== null;
      return { ...parent, capturedMinor, captureCount, captureClosed };
    }
    case 'RF': {
      const refundedMinor = parent.refundedMinor - child.amountMinor;
      const refundClosed = finalSiblingStands || refundedMinor === parent.amountMinor || parent.reversedAt !== null;
      return { ...parent, refundedMinor, refundClosed };
    }
    case 'RV':
      // A reversal is accepted only while nothing is captured or refunded, so nothing else closed it.
      return { ...parent, reversedAt: null, captureClosed: parent.paymentType === 'PA' ? false : parent.captureClosed, refundClosed: false };
  }
}
