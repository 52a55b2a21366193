import { OPERATOR_REJECTED_CODE, OPERATOR_SUCCESS_CODE } from '../../domain/pending-schedule.js';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { GatewayError } from '../../results/gateway-error.js';
import { listOpenPending, type OpenPendingTransaction } from '../../storage/repositories/pending-checks.js';
import { findTransactionById } from '../../storage/repositories/transactions.js';
import type { OperationDeps } from '../deps.js';
import { applyResolution, type Resolution } from './apply-resolution.js';
import { observeLaterOutcome } from '../payments/observe-payment.js';
import type { Observer } from '../../observability/observer.js';

export interface ManualResolutionInput {
  readonly transactionId: string;
  /** What the operator learnt from the acquirer: the money moved (success) or not (rejected). */
  readonly outcome: string;
  /** Why: kept with the resolution record (e.g. the acquirer's ticket). */
  readonly reason: string;
  /** Written in the resolution's transaction (the console's audit entry): both commit or neither. */
  readonly alsoWrite?: Resolution['alsoWrite'];
}

const REASON = /^[^\u0000-\u001f\u007f]{3,500}$/;

function invalid(name: string, value: string, message: string): GatewayError {
  return new GatewayError('200.300.404', { parameterErrors: [{ name, value: value.slice(0, 64), message }] });
}

/**
 * An operator ends a pending transaction by hand, with a reason that is kept: success
 * (000.600.000, "succeeded due to external update") or rejected (100.397.102). Same locks,
 * reservation rules and notification as any other outcome; a transaction that is no longer
 * pending is refused.
 */
export async function resolveManually(deps: OperationDeps & { readonly observe?: Observer | undefined }, input: ManualResolutionInput) {
  if (!ENTITY_ID_PATTERN.test(input.transactionId)) throw invalid('transaction', input.transactionId, 'must be a transaction id (32 hex)');
  if (input.outcome !== 'success' && input.outcome !== 'rejected') throw invalid('outcome', input.outcome, 'must be success or rejected');
  if (!REASON.test(input.reason)) throw invalid('reason', '', 'must be 3 to 500 characters without control characters');
  const transaction = await findTransactionById(deps.storage, input.transactionId);
  if (!transaction) throw new GatewayError('700.400.580', { httpStatus: 404 });
  const outcome = input.outcome === 'success'
    ? { kind: 'success' as const, code: OPERATOR_SUCCESS_CODE, resultDetails: {} }
    : { kind: 'declined' as const, code: OPERATOR_REJECTED_CODE, resultDetails: {} };
  const result = await applyResolution(deps, { transactionId: transaction.id, outcome, by: 'operator', reason: input.reason, alsoWrite: input.alsoWrite });
  if (!result.applied) throw invalid('transaction', transaction.id, `is not pending (result ${transaction.resultCode}); only a pending transaction can be resolved`);
  observeLaterOutcome(deps.observe, transaction, outcome.code);
  return { transactionId: transaction.id, status: result.transaction.status, resultCode: result.transaction.resultCode, reason: input.reason };
}

const LIST_LIMIT_MAX = 1_000;

export async function listPending(deps: Pick<OperationDeps, 'storage'>, limit = 100): Promise<Array<Omit<OpenPendingTransaction, 'amountMinor' | 'createdAt' | 'lastCheckedAt' | 'nextCheckAt'> & Record<string, unknown>>> {
  const rows = await listOpenPending(deps.storage, Math.min(Math.max(limit, 1), LIST_LIMIT_MAX));
  return rows.map((row) => ({
    ...row,
    amountMinor: row.amountMinor.toString(),
    createdAt: row.createdAt.toISOString(),
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    nextCheckAt: row.nextCheckAt?.toISOString() ?? null,
  }));
}
