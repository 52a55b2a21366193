import { releaseReservation } from '../../domain/lifecycle/release.js';
import { shareReleasedAmount } from '../../domain/settlement/chargeback.js';
import type { ReferencingPaymentType } from '../../domain/transaction.js';
import type { Queryable } from '../../storage/port.js';
import { addToChargebackTaken, chargebackShortfalls } from '../../storage/repositories/settlement-records.js';
import { hasStandingFinalChild, updateTotals, type StoredTransaction } from '../../storage/repositories/transactions.js';

/** The declined child whose reservation goes back to its parent. */
export interface ReleasedChild {
  readonly id: string;
  readonly paymentType: ReferencingPaymentType;
  readonly amountMinor: bigint;
}

/**
 * Gives a declined capture, refund or reversal's reservation back to its parent, which the caller
 * holds locked. A refund's amount that a chargeback could not take while it was held goes to that
 * chargeback instead (issue 29): a declined refund never makes charged-back money refundable.
 */
export async function releaseOnParent(tx: Queryable, parent: StoredTransaction, child: ReleasedChild, at: Date): Promise<void> {
  const finalSiblingStands = child.paymentType !== 'RV' && (await hasStandingFinalChild(tx, parent.id, child.paymentType, child.id));
  let amountMinor = child.amountMinor;
  if (child.paymentType === 'RF') {
    const shared = shareReleasedAmount(await chargebackShortfalls(tx, parent.id), child.amountMinor);
    for (const { recordId, addMinor } of shared.toChargebacks) await addToChargebackTaken(tx, recordId, addMinor);
    amountMinor = shared.toRefundableMinor;
  }
  await updateTotals(tx, [{ id: parent.id, totals: releaseReservation(parent, { paymentType: child.paymentType, amountMinor }, finalSiblingStands), at }]);
}
