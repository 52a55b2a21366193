import type { SettlementRecord } from '../../connectors/connector.js';
import { afterChargeback, afterChargebackReversal } from '../../domain/settlement/chargeback.js';
import { newShortId } from '../../domain/short-id.js';
import { newTransactionState } from '../../domain/transaction.js';
import type { Queryable } from '../../storage/port.js';
import { chargebackOf, setChargebackId } from '../../storage/repositories/settlement-records.js';
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

/**
 * A matched chargeback becomes a CB transaction referencing the payment, a matched reversal a CR:
 * the parent's refundable amount changes under its row lock, the new row and its PAYMENT
 * notification are written in the caller's database transaction (with the record itself).
 * A reversal whose chargeback the gateway never recorded changes nothing. Answers the new id.
 */
export async function applyChargeback(tx: Queryable, deps: OperationDeps, matched: MatchedChargeback): Promise<string | undefined> {
  const parent = await lockTransaction(tx, matched.parentEntityId, matched.parentId);
  if (!parent) return undefined;
  const now = deps.clock.now();
  let taken: bigint | null = null;
  let totals;
  if (matched.record.type === 'CHARGEBACK') {
    const after = afterChargeback(parent, matched.record.amountMinor);
    taken = after.takenMinor;
    totals = after;
  } else {
    const chargeback = await chargebackOf(tx, parent.id);
    if (!chargeback) return undefined;
    const finalRefundStands = await hasStandingFinalChild(tx, parent.id, 'RF', '');
    totals = afterChargebackReversal(parent, chargeback.takenMinor, finalRefundStands);
  }
  const child = childOf(deps, parent, matched.record.type === 'CHARGEBACK' ? 'CB' : 'CR', matched.record);
  await insertTransactions(tx, [child]);
  await updateTotals(tx, [{ id: parent.id, totals: { ...parent, refundedMinor: totals.refundedMinor, refundClosed: totals.refundClosed }, at: now }]);
  await setChargebackId(tx, matched.rowId, child.id, taken);
  await enqueueNotification(tx, { entityId: parent.entityId, type: 'PAYMENT', transactionId: child.id }, deps);
  return child.id;
}
