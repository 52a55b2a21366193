import type { SettlementRecord } from '../../connectors/connector.js';
import { afterChargeback, afterChargebackReversal, shareReleasedAmount, type RefundTotals } from '../../domain/settlement/chargeback.js';
import { newShortId } from '../../domain/short-id.js';
import { newTransactionState } from '../../domain/transaction.js';
import type { Queryable } from '../../storage/port.js';
import { addToChargebackTaken, chargebackShortfalls, setChargebackId, unreversedChargebackOf } from '../../storage/repositories/settlement-records.js';
import { hasStandingFinalChild, insertTransactions, lockTransaction, updateTotals, type StoredTransaction } from '../../storage/repositories/transactions.js';
import type { OperationDeps } from '../deps.js';
import { buildPaymentView, storedResponse } from '../payments/payment-response.js';
import { enqueueNotification } from '../webhooks/enqueue-notification.js';

/** A matched CHARGEBACK or CHARGEBACK_REVERSAL record, just written by ingest. */
export interface MatchedChargeback {
  /** The settlement_records row. */
  readonly rowId: string;
  readonly record: SettlementRecord;
  readonly parentId: string;
  readonly parentEntityId: string;
}

/** A chargeback record without a reason code still says it is one: "Reason not Specified". */
const UNSPECIFIED_REASON = '000.100.200';

function descriptorOf(parent: StoredTransaction): string {
  return typeof parent.response['descriptor'] === 'string' ? (parent.response['descriptor'] as string) : parent.shortId;
}

function childOf(deps: OperationDeps, parent: StoredTransaction, type: 'CB' | 'CR', record: SettlementRecord): StoredTransaction {
  const now = deps.clock.now();
  const code = record.resultCode ?? UNSPECIFIED_REASON;
  const child: StoredTransaction = {
    parentId: parent.id,
    isFinal: false,
    paymentBrand: parent.paymentBrand,
    paymentMethod: parent.paymentMethod,
    merchantTransactionId: parent.merchantTransactionId,
    shortId: newShortId(),
    connectorReferences: { ...record.connectorReferences },
    schemeTransactionId: null,
    response: {},
    updatedAt: now,
    routeId: parent.routeId,
    idempotencyClaimId: null,
    ...newTransactionState({ id: deps.ids.id(), entityId: parent.entityId, paymentType: type, status: 'success', amountMinor: record.amountMinor, currency: parent.currency, createdAt: now, connectorId: parent.connectorId, resultCode: code }),
  };
  const view = buildPaymentView({
    id: child.id,
    referencedId: parent.id,
    paymentType: type,
    paymentBrand: child.paymentBrand,
    amountMinor: child.amountMinor,
    currency: child.currency,
    descriptor: descriptorOf(parent),
    merchantTransactionId: child.merchantTransactionId ?? undefined,
    shortId: child.shortId,
    outcome: { code, resultDetails: { ...record.connectorReferences, clearingInstituteName: record.clearingInstitute } },
  });
  return Object.assign(child, { response: storedResponse(view) });
}

interface Effect {
  readonly totals: RefundTotals;
  readonly takenMinor: bigint | null;
  readonly reversedChargebackId: string | null;
}

/**
 * What the record does to the locked parent: a chargeback takes from the refundable amount, a
 * reversal gives back what one not yet reversed chargeback took (to another chargeback short of
 * its amount first). A reversal with no such chargeback (a second reversal, or one that came
 * before its chargeback) does nothing.
 */
async function effectOf(tx: Queryable, parent: StoredTransaction, record: SettlementRecord): Promise<Effect | undefined> {
  if (record.type === 'CHARGEBACK') {
    const after = afterChargeback(parent, record.amountMinor);
    return { totals: after, takenMinor: after.takenMinor, reversedChargebackId: null };
  }
  const chargeback = await unreversedChargebackOf(tx, parent.id, record.amountMinor);
  if (!chargeback) return undefined;
  // What it gives back covers first the other chargebacks that could not take their whole amount.
  const shared = shareReleasedAmount(await chargebackShortfalls(tx, parent.id, chargeback.id), chargeback.takenMinor);
  for (const { recordId, addMinor } of shared.toChargebacks) await addToChargebackTaken(tx, recordId, addMinor);
  const finalRefundStands = await hasStandingFinalChild(tx, parent.id, 'RF', '');
  return { totals: afterChargebackReversal(parent, shared.toRefundableMinor, finalRefundStands), takenMinor: null, reversedChargebackId: chargeback.id };
}

/**
 * A matched chargeback becomes a CB transaction referencing the payment, a matched reversal a CR:
 * the parent's refundable amount changes under its row lock, the new row and its PAYMENT
 * notification are written in the caller's database transaction (with the record itself).
 * Each CB is reversed at most once: the reversal's record names the CB it reversed, and the
 * database refuses a second record naming it (migration 025). Answers the new id.
 */
export async function applyChargeback(tx: Queryable, deps: OperationDeps, matched: MatchedChargeback): Promise<string | undefined> {
  const parent = await lockTransaction(tx, matched.parentEntityId, matched.parentId);
  if (!parent) return undefined;
  const effect = await effectOf(tx, parent, matched.record);
  if (!effect) return undefined;
  const child = childOf(deps, parent, matched.record.type === 'CHARGEBACK' ? 'CB' : 'CR', matched.record);
  await insertTransactions(tx, [child]);
  const totals = { ...parent, refundedMinor: effect.totals.refundedMinor, refundClosed: effect.totals.refundClosed };
  await updateTotals(tx, [{ id: parent.id, totals, at: deps.clock.now() }]);
  await setChargebackId(tx, matched.rowId, { chargebackId: child.id, takenMinor: effect.takenMinor, reversedChargebackId: effect.reversedChargebackId });
  await enqueueNotification(tx, { entityId: parent.entityId, type: 'PAYMENT', transactionId: child.id }, deps);
  return child.id;
}
