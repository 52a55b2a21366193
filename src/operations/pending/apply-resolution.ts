import type { NormalizedOutcome } from '../../connectors/connector.js';
import { releaseOnParent } from '../payments/release-on-parent.js';
import type { ReferencingPaymentType } from '../../domain/transaction.js';
import { resultOf } from '../../http/envelope.js';
import type { Queryable } from '../../storage/port.js';
import { recordResolutions, type ResolutionRecord, type ResolvedBy } from '../../storage/repositories/pending-checks.js';
import { lockPendingTransaction, lockTransaction, type StoredTransaction } from '../../storage/repositories/transactions.js';
import type { OperationDeps } from '../deps.js';
import { serialisedView, viewOfStored } from '../payments/payment-response.js';
import { settledPayment, writeSettledPayments, type SettledPayment } from '../payments/payment-writes.js';
import { owesRegistrations, settleRegistrations } from '../payments/settle-registrations.js';
import { findLatestRedirectOf } from '../../storage/repositories/shopper-redirects.js';

/** A final outcome for a pending transaction, and who decided it. */
export interface Resolution {
  readonly transactionId: string;
  readonly outcome: Pick<NormalizedOutcome, 'kind' | 'code' | 'resultDetails' | 'schemeTransactionId'> & { readonly kind: 'success' | 'declined' };
  readonly by: ResolvedBy;
  /** An operator's reason, kept with the record. */
  readonly reason?: string | undefined;
  /** Written in the resolution's transaction once it applied (the console's audit entry). */
  readonly alsoWrite?: ((tx: Queryable, resolved: StoredTransaction) => Promise<void>) | undefined;
}

export type ResolutionResult =
  | { readonly applied: true; readonly transaction: StoredTransaction }
  /** The transaction was no longer pending (another outcome won), or does not exist. */
  | { readonly applied: false };

/**
 * The stored response with the new result and what the connector added to resultDetails;
 * everything else as the merchant saw it, but the redirect: an ended payment has none to follow.
 */
function resolvedResponse(stored: Record<string, unknown>, outcome: Resolution['outcome']): Record<string, unknown> {
  const { result: _old, redirect: _redirect, ...body } = stored;
  const details = { ...(body['resultDetails'] as Record<string, string> | undefined), ...outcome.resultDetails };
  const resolved: Record<string, unknown> = { ...body };
  if (Object.keys(details).length > 0) resolved['resultDetails'] = details;
  return Object.assign(resolved, { result: resultOf(outcome.code) });
}

/**
 * Ends a pending transaction the way a live outcome would have, under the same locks: the
 * transaction's row first, then (for a capture, refund or reversal) its parent's. A success keeps
 * the reservation it made on the parent (it is consumed); a decline gives it back. The outcome
 * and its PAYMENT notification (action UPDATED) are written in one statement, and the resolution
 * record in the same transaction, so each exists exactly when the others do.
 */
export async function applyResolution(deps: Pick<OperationDeps, 'storage' | 'clock' | 'ids'>, resolution: Resolution): Promise<ResolutionResult> {
  return deps.storage.transaction((tx) => applyResolutionIn(tx, deps, resolution));
}

/** applyResolution in the caller's transaction, for a caller that ends something else with it (a redirect). */
export async function applyResolutionIn(tx: Queryable, deps: Pick<OperationDeps, 'clock' | 'ids'>, resolution: Resolution): Promise<ResolutionResult> {
  const transaction = await lockPendingTransaction(tx, resolution.transactionId);
  if (!transaction) return { applied: false };
  // The request's notificationUrl is kept only with its redirect: the UPDATED goes where the first notification went.
  const notificationUrl = (await findLatestRedirectOf(tx, transaction.id))?.resume['notificationUrl'] as string | undefined;
  const ending = endingOf(deps, transaction, resolution, notificationUrl);
  await writeSettledPayments(tx, [ending.settled]);
  await settleAround(tx, ending, deps.clock.now());
  await recordResolutions(tx, [ending.record]);
  await resolution.alsoWrite?.(tx, ending.resolved);
  return { applied: true, transaction: ending.resolved };
}

/** What ending a locked pending transaction writes: its outcome with its notification, its resolution record, and the row as it becomes. */
export interface Ending {
  readonly transaction: StoredTransaction;
  readonly outcome: Resolution['outcome'];
  readonly settled: SettledPayment;
  readonly record: ResolutionRecord;
  readonly resolved: StoredTransaction;
}

export function endingOf(deps: Pick<OperationDeps, 'clock' | 'ids'>, transaction: StoredTransaction, resolution: Resolution, notificationUrl: string | undefined): Ending {
  const now = deps.clock.now();
  const response = resolvedResponse(transaction.response, resolution.outcome);
  const view = serialisedView(viewOfStored(response));
  const outcome = { ...resolution.outcome, resultDetails: { ...transaction.connectorReferences, ...resolution.outcome.resultDetails } };
  const schemeTransactionId = resolution.outcome.schemeTransactionId ?? transaction.schemeTransactionId;
  return {
    transaction,
    outcome,
    settled: settledPayment(deps, { id: transaction.id, entityId: transaction.entityId, outcome, view, schemeTransactionId, notificationUrl, action: 'UPDATED' }),
    record: {
      transactionId: transaction.id,
      entityId: transaction.entityId,
      at: now,
      by: resolution.by,
      code: resolution.outcome.code,
      reason: resolution.reason ?? null,
      answered: resolution.by === 'status',
    },
    resolved: { ...transaction, response, resultCode: resolution.outcome.code, status: resolution.outcome.kind === 'success' ? 'success' : 'rejected' },
  };
}

/**
 * What an ending owes beside its row: a decline gives a capture's, refund's or reversal's
 * reservation back to its parent (a success keeps it: it is consumed), and a payment's
 * registrations are settled with its outcome.
 */
export async function settleAround(tx: Queryable, ending: Ending, now: Date): Promise<void> {
  const { transaction, outcome } = ending;
  if (outcome.kind === 'declined' && transaction.parentId) await releaseChildOnParent(tx, transaction, now);
  if (!transaction.parentId && owesRegistrations(transaction)) await settleRegistrations(tx, transaction, outcome, now);
}

async function releaseChildOnParent(tx: Queryable, child: StoredTransaction, at: Date): Promise<void> {
  const parent = await lockTransaction(tx, child.entityId, child.parentId!);
  if (!parent) return;
  await releaseOnParent(tx, parent, { id: child.id, paymentType: child.paymentType as ReferencingPaymentType, amountMinor: child.amountMinor }, at);
}
