import type { EndpointRequest } from '../../catalogue/request-types.generated.js';
import { GatewayError } from '../../results/gateway-error.js';
import {
  findLinkedTransactions,
  findTransactions,
  findVisibleTransaction,
  visibleEntityIds,
} from '../../storage/repositories/transaction-queries.js';
import type { OperationDeps } from '../deps.js';

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
export async function queryTransactions(deps: Pick<OperationDeps, 'storage'>, entityId: string, request: EndpointRequest<'query'>): Promise<QueriedPayment[]> {
  needsACriterion(request);
  const entityIds = await visibleEntityIds(deps.storage, entityId);
  const found = await findTransactions(deps.storage, {
    entityIds,
    merchantTransactionId: request.merchantTransactionId,
    shortId: request.shortId,
    createdFrom: request.date?.from,
    createdBefore: request.date?.to,
    paymentTypes: request.paymentTypes,
    paymentMethods: request.paymentMethods,
    limit: request.limit ?? DEFAULT_QUERY_LIMIT,
  });
  if (found.length === 0) throw new GatewayError('700.400.580');
  return found.map((t) => t.response);
}

/** GET /v1/query/{id}: that transaction and, on request, its parent and its children. */
export async function queryTransaction(deps: Pick<OperationDeps, 'storage'>, entityId: string, id: string, includeLinked: boolean): Promise<QueriedPayment[]> {
  const entityIds = await visibleEntityIds(deps.storage, entityId);
  const transaction = await findVisibleTransaction(deps.storage, entityIds, id);
  if (!transaction) throw new GatewayError('700.400.580');
  if (!includeLinked) return [transaction.response];
  const linked = await findLinkedTransactions(deps.storage, entityIds, transaction);
  return [transaction.response, ...linked.map((t) => t.response)];
}
