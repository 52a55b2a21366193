import { GatewayError } from '../../results/gateway-error.js';
import { findTransaction, findTransactionByIdempotencyClaim } from '../../storage/repositories/transactions.js';
import type { OperationDeps } from '../deps.js';
import { viewOfStored, type PaymentView } from './payment-response.js';

/** A payment as its creating request answered, or as its outcome has changed it since. */
export async function getPayment(deps: Pick<OperationDeps, 'storage'>, entityId: string, id: string): Promise<PaymentView> {
  const stored = await findTransaction(deps.storage, entityId, id);
  if (!stored) throw new GatewayError('700.400.580');
  return viewOfStored(stored.response);
}

/** The payment a request wrote under an Idempotency-Key's claim, as it stands now; undefined when it wrote none. */
export async function findPaymentByIdempotencyClaim(deps: Pick<OperationDeps, 'storage'>, entityId: string, claimId: string): Promise<PaymentView | undefined> {
  const stored = await findTransactionByIdempotencyClaim(deps.storage, entityId, claimId);
  return stored ? viewOfStored(stored.response) : undefined;
}
