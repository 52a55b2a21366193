import type { EndpointRequest } from '../../catalogue/request-types.generated.js';
import { GatewayError } from '../../results/gateway-error.js';
import {
  findLinkedTransactions,
  findTransactions,
  findVisibleTransaction,
  visibleEntityIds,
} from '../../storage/repositories/transaction-queries.js';
import type { Queryable, StaleReads } from '../../storage/port.js';

/** The query API reads with a bounded staleness (storage/port.ts StaleReads). */
export interface QueryDeps {
  readonly reads: StaleReads;
}

export const DEFAULT_QUERY_LIMIT = 100;

/** Each payment in the form of the payment response, with its own result. */
export type QueriedPayment = Record<string, unknown>;

function needsACriterion(request: EndpointRequest<'query'>): void {
  if (request.merchantTransactionId !== undefined || request.shortId !== undefined || request.date?.from !== undefined) return;
  throw new GatewayError('200.300.404', {
    parameterErrors: [{ name: 'merchantTransactionId', value: '', message: 'a query needs merchantTransactionId, shortId, or date.from and date.to' }],
  });
}

/**
 * GET /v1/query: by merchant reference, short id or time frame (start inclusive, end exclusive),
 * filtered by payment type and method, newest first, at most `limit`. The combinations the
 * catalogue refuses (time frame without end, reference together with a time frame) never get here.
 */
export async function queryTransactions(deps: QueryDeps, entityId: string, request: EndpointRequest<'query'>): Promise<QueriedPayment[]> {
  needsACriterion(request);
  // A reference or short id names one payment: one the replica lacks may be a moment old.
  const namesOne = request.merchantTransactionId !== undefined || request.shortId !== undefined;
  const found = await orOnLeader(deps, entityId, namesOne, async (db) => findTransactions(db, {
    entityIds: await visibleEntityIds(db, entityId),
    merchantTransactionId: request.merchantTransactionId,
    shortId: request.shortId,
    createdFrom: request.date?.from,
    createdBefore: request.date?.to,
    paymentTypes: request.paymentTypes,
    paymentMethods: request.paymentMethods,
    limit: request.limit ?? DEFAULT_QUERY_LIMIT,
  }));
  if (found.length === 0) throw new GatewayError('700.400.580');
  return found.map((t) => t.response);
}

/** GET /v1/query/{id}: that transaction and, on request, its parent and its children. */
export async function queryTransaction(deps: QueryDeps, entityId: string, id: string, includeLinked: boolean): Promise<QueriedPayment[]> {
  const found = await orOnLeader(deps, entityId, true, async (db) => {
    const entityIds = await visibleEntityIds(db, entityId);
    const transaction = await findVisibleTransaction(db, entityIds, id);
    if (!transaction) return [];
    return includeLinked ? [transaction, ...await findLinkedTransactions(db, entityIds, transaction)] : [transaction];
  });
  if (found.length === 0) throw new GatewayError('700.400.580');
  return found.map((t) => t.response);
}

/**
 * Reads on the stale-tolerant side; when that found nothing for a look-up that names one
 * payment, asks the leader: the payment may have been written a moment ago through another
 * gateway process, whose writes this one does not know of (replica-reads.ts). A time frame names
 * none, so its answer stays within the staleness bound.
 */
async function orOnLeader<T>(deps: QueryDeps, entityId: string, namesOne: boolean, read: (db: Queryable) => Promise<readonly T[]>): Promise<readonly T[]> {
  const db = deps.reads.tolerant(entityId);
  const found = await read(db);
  if (found.length > 0 || !namesOne || db === deps.reads.leader) return found;
  return read(deps.reads.leader);
}
