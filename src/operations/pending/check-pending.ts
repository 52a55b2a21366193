import { type NormalizedOutcome, type StatusRequest } from '../../connectors/connector.js';
import type { ConnectorRouter } from '../../connectors/router.js';
import { HORIZON_CODE, nextCheck, pastHorizon, type PendingSchedule } from '../../domain/pending-schedule.js';
import { findPendingCheck, recordCheckAttempt, recordResolution } from '../../storage/repositories/pending-checks.js';
import { findTransactionById, lookUpTransactionById, type StoredTransaction } from '../../storage/repositories/transactions.js';
import type { OperationDeps } from '../deps.js';
import { applyResolutionGrouped } from './apply-resolutions-grouped.js';
import { observeLaterOutcome } from '../payments/observe-payment.js';

export interface CheckPendingDeps extends OperationDeps {
  readonly connectors: ConnectorRouter;
  readonly schedule: PendingSchedule;
  readonly connectorTimeoutMs: number;
}

/** What one check did: ended the transaction (or found it ended), or planned the next question. */
export type CheckResult =
  | { readonly kind: 'ended'; readonly by: 'status' | 'horizon' | 'outcome'; readonly code: string }
  | { readonly kind: 'again'; readonly at: Date; readonly answer: string };

export function statusRequestOf(transaction: StoredTransaction, parent: StoredTransaction | undefined, credentials: StatusRequest['credentials']): StatusRequest {
  return {
    transactionId: transaction.id,
    entityId: transaction.entityId,
    paymentType: transaction.paymentType,
    amountMinor: transaction.amountMinor,
    currency: transaction.currency,
    brand: transaction.paymentBrand ?? '',
    createdAt: transaction.createdAt,
    connectorReferences: transaction.connectorReferences,
    credentials,
    ...(parent ? { parent: { transactionId: parent.id, paymentType: parent.paymentType, connectorReferences: parent.connectorReferences } } : {}),
  };
}

/** Asks the transaction's connector; a connector without the status capability (or a route that is gone) cannot answer. */
async function askConnector(deps: CheckPendingDeps, transaction: StoredTransaction): Promise<NormalizedOutcome | string> {
  const routed = await deps.connectors.forTransaction(transaction);
  if (!routed) return 'connector not configured';
  const { connector, credentials } = routed;
  if (!connector.status) return 'connector cannot be asked for a status';
  const parent = transaction.parentId ? await lookUpTransactionById(deps.storage, transaction.parentId) : undefined;
  const request = statusRequestOf(transaction, parent, credentials);
  return deps.connectors.call(connector, 'status', () => connector.status!(request), { timeoutMs: deps.connectorTimeoutMs });
}

/**
 * One check of one pending transaction: its connector is asked, and a final answer ends it;
 * anything else plans the next question on the back-off schedule, or past the horizon ends it
 * (100.396.103). The horizon never ends a transaction unasked: a check that runs late (workers
 * that were down, a redirect that expired after the horizon) still asks first, since money may
 * have moved. Every end goes through applyResolution (grouped with the checks ending at the same
 * moment: apply-resolutions-grouped.ts), which changes only a transaction that is
 * still pending, so a late live outcome, an operator and this job never both win.
 */
export async function checkPendingTransaction(deps: CheckPendingDeps, transactionId: string): Promise<CheckResult> {
  const transaction = await lookUpTransactionById(deps.storage, transactionId);
  const now = deps.clock.now();
  if (!transaction || transaction.status !== 'pending') return endedElsewhere(deps, transaction, now);
  const answer = await askConnector(deps, transaction);
  if ((typeof answer === 'string' || answer.kind === 'pending') && pastHorizon(deps.schedule, transaction, now)) {
    const ended = await applyResolutionGrouped(deps, { transactionId, outcome: { kind: 'declined', code: HORIZON_CODE, resultDetails: {} }, by: 'horizon' });
    if (!ended.applied) return endedElsewhere(deps, transaction, now);
    observeLaterOutcome(deps.connectors.observe, transaction, HORIZON_CODE);
    return { kind: 'ended', by: 'horizon', code: HORIZON_CODE };
  }
  if (typeof answer !== 'string' && answer.kind !== 'pending') {
    const ended = await applyResolutionGrouped(deps, { transactionId, outcome: { kind: answer.kind, code: answer.code, resultDetails: answer.resultDetails, schemeTransactionId: answer.schemeTransactionId }, by: 'status' });
    if (!ended.applied) return endedElsewhere(deps, transaction, now);
    observeLaterOutcome(deps.connectors.observe, transaction, answer.code);
    return { kind: 'ended', by: 'status', code: answer.code };
  }
  const said = typeof answer === 'string' ? answer : `${answer.code}${answer.normalizedBecause ? ` (${answer.normalizedBecause})` : ''}`;
  const check = await findPendingCheck(deps.storage, transactionId);
  const next = nextCheck(deps.schedule, transaction, (check?.attempts ?? 0) + 1, now);
  await recordCheckAttempt(deps.storage, { transactionId, at: now, answer: said, nextCheckAt: next.at });
  return { kind: 'again', at: next.at, answer: said };
}

/** The transaction ended by another way (its live outcome, an operator): the check record says so. */
async function endedElsewhere(deps: CheckPendingDeps, transaction: StoredTransaction | undefined, now: Date): Promise<CheckResult> {
  const current = transaction && (await findTransactionById(deps.storage, transaction.id));
  if (current && current.status !== 'pending') {
    const check = await findPendingCheck(deps.storage, current.id);
    if (check && check.resolvedAt === null) {
      await recordResolution(deps.storage, { transactionId: current.id, entityId: current.entityId, at: now, by: 'outcome', code: current.resultCode, reason: null, answered: false });
    }
  }
  return { kind: 'ended', by: 'outcome', code: current?.resultCode ?? '' };
}
