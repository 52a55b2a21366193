import type { Observer } from '../../observability/observer.js';
import { recordChange } from '../audit/record-change.js';
import type { OperationDeps } from '../deps.js';
import { resolveManually } from '../pending/resolve-manually.js';
import { merchantOfEntity } from '../../storage/repositories/console/payment-family.js';
import type { ConsoleActionResult, ConsoleActor } from './console-action.js';
import { describeResult, findVisibleTransaction, paymentNotFound } from './load-payment-detail.js';

export interface ConsoleResolutionInput extends ConsoleActor {
  readonly transactionId: string;
  /** success: the money moved; rejected: it did not. */
  readonly outcome: string;
  readonly reason: string;
}

/**
 * A pending transaction ended by hand in the console, with a reason: the operator's own
 * operation (same locks, release of the parent's reservation, UPDATED notification), with the
 * audit entry in its transaction. A transaction that is no longer pending (a stale page, a
 * second submission) is refused with a field message; nothing changes.
 */
export async function resolvePendingFromConsole(deps: OperationDeps & { readonly observe?: Observer | undefined }, input: ConsoleResolutionInput): Promise<ConsoleActionResult> {
  const transaction = await findVisibleTransaction(deps.storage, input.visibility, input.transactionId);
  if (!transaction) throw paymentNotFound();
  const merchantId = (await merchantOfEntity(deps.storage, transaction.entityId)) ?? transaction.entityId;
  const resolved = await resolveManually(deps, {
    transactionId: transaction.id,
    outcome: input.outcome,
    reason: input.reason.trim(),
    alsoWrite: async (tx, after) => {
      await recordChange(tx, deps.clock, {
        actor: input.actor, action: 'payments.resolve-pending', target: { kind: 'transaction', id: transaction.id }, merchantId,
        before: { status: transaction.status, resultCode: transaction.resultCode },
        after: { status: after.status, resultCode: after.resultCode, reason: input.reason.trim() },
      });
    },
  });
  return { kind: 'done', transactionId: resolved.transactionId, status: resolved.status, resultCode: resolved.resultCode, description: describeResult(resolved.resultCode), repeated: false };
}

