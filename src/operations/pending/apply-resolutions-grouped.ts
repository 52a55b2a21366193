import { createGroupCommit, type ItemResult } from '../../storage/group-commit.js';
import { perStorage } from '../../storage/batched-lookup.js';
import type { Queryable, Storage } from '../../storage/port.js';
import { recordResolutions } from '../../storage/repositories/pending-checks.js';
import { findLatestRedirectsOf } from '../../storage/repositories/shopper-redirects.js';
import { lockPendingTransactions } from '../../storage/repositories/transactions.js';
import type { OperationDeps } from '../deps.js';
import { writeSettledPayments } from '../payments/payment-writes.js';
import { endingOf, settleAround, type Ending, type Resolution, type ResolutionResult } from './apply-resolution.js';

type ResolutionDeps = Pick<OperationDeps, 'storage' | 'clock' | 'ids'>;

interface GroupedResolution {
  readonly deps: ResolutionDeps;
  readonly resolution: Resolution;
}

/**
 * The endings of a group of concurrent status checks, in one transaction of a few statements
 * whatever the group's size: the rows locked together (in id order), the latest redirects read
 * together, the outcomes with their notifications written by one statement, the resolution
 * records by another. Each item is what applyResolution would have done alone; a transaction
 * twice in one group is ended by its first item only, as two applyResolution calls would.
 */
async function applyResolutionGroup(tx: Queryable, items: readonly GroupedResolution[]): Promise<ItemResult<ResolutionResult>[]> {
  const ids = [...new Set(items.map((item) => item.resolution.transactionId))];
  const locked = await lockPendingTransactions(tx, ids);
  const redirects = locked.size > 0 ? await findLatestRedirectsOf(tx, [...locked.keys()]) : new Map();
  const endings = items.map(({ deps, resolution }): Ending | undefined => {
    const transaction = locked.get(resolution.transactionId);
    if (!transaction) return undefined;
    locked.delete(resolution.transactionId);
    // The request's notificationUrl is kept only with its redirect: the UPDATED goes where the first notification went.
    return endingOf(deps, transaction, resolution, redirects.get(transaction.id)?.resume['notificationUrl'] as string | undefined);
  });
  const ended = endings.filter((ending): ending is Ending => ending !== undefined);
  if (ended.length > 0) {
    await writeSettledPayments(tx, ended.map((ending) => ending.settled));
    for (const ending of ended) await settleAround(tx, ending, ending.record.at);
    await recordResolutions(tx, ended.map((ending) => ending.record));
  }
  return endings.map((ending) => ({ ok: true, value: ending ? { applied: true, transaction: ending.resolved } : { applied: false } }));
}

/** One group on its way at a time per storage (a transaction on one pooled connection), as the payments' groups. */
const resolutionGroups = perStorage((storage: Storage) => {
  const group = createGroupCommit<GroupedResolution, ResolutionResult>({ storage, name: 'resolve-pending', write: applyResolutionGroup, transactional: true, maxGroupSize: 128, maxConcurrentGroups: 1 });
  return (item: GroupedResolution) => group.submit(item);
});

/**
 * applyResolution for the status checks, which end many transactions at once under load: the
 * same writes, shared with the checks ending at the same moment (group commit). A group that
 * fails (a deadlock with another writer, a constraint) is written again item by item.
 * Operators' resolutions, with their audit entry (alsoWrite), keep applyResolution.
 */
export async function applyResolutionGrouped(deps: ResolutionDeps, resolution: Resolution): Promise<ResolutionResult> {
  if (resolution.alsoWrite) throw new Error('a resolution with writes of its own goes through applyResolution');
  return (await resolutionGroups(deps.storage, { deps, resolution }))!;
}
