import { CHECKOUT_GONE, type AttemptStatus } from '../../domain/checkouts/attempt.js';
import { isCheckoutId } from '../../domain/checkouts/checkout-id.js';
import { GatewayError } from '../../results/gateway-error.js';
import { findEntityCheckout, lookUpCheckout, type StoredCheckout } from '../../storage/repositories/checkouts.js';
import { findRegistration } from '../../storage/repositories/registrations.js';
import { findOpenRedirectOf } from '../../storage/repositories/shopper-redirects.js';
import { findTransactionById } from '../../storage/repositories/transactions.js';
import type { OperationDeps } from '../deps.js';

/** OPPWA's answer to a checkout id that is unknown, expired or used up: 200.300.404 naming it. */
export function checkoutGone(id: string, message = 'no checkout with this id, or it expired'): GatewayError {
  return new GatewayError(CHECKOUT_GONE, { parameterErrors: [{ name: 'id', value: id.slice(0, 64), message }] });
}

/** Any entity's checkout, while it lives: the widget's calls carry only its id. */
export async function loadLiveCheckout(deps: OperationDeps, id: string): Promise<StoredCheckout> {
  const checkout = isCheckoutId(id) ? await lookUpCheckout(deps.storage, id) : undefined;
  if (!checkout || checkout.expiresAt <= deps.clock.now()) throw checkoutGone(id);
  return checkout;
}

/** The merchant's own checkout, while it lives; another entity's is not found. */
export async function loadOwnCheckout(deps: OperationDeps, entityId: string, id: string): Promise<StoredCheckout> {
  const checkout = isCheckoutId(id) ? await findEntityCheckout(deps.storage, entityId, id) : undefined;
  if (!checkout || checkout.expiresAt <= deps.clock.now()) throw checkoutGone(id);
  return checkout;
}

/** What became of a checkout's latest attempt, read from its transaction (or registration). */
export async function latestAttemptStatus(deps: OperationDeps, checkout: StoredCheckout): Promise<AttemptStatus> {
  if (!checkout.attemptId) return 'none';
  if (checkout.purpose === 'registration') {
    const registration = await findRegistration(deps.storage, checkout.entityId, checkout.attemptId);
    return registration ? 'success' : 'none';
  }
  const transaction = await findTransactionById(deps.storage, checkout.attemptId);
  if (!transaction) return 'none';
  if (transaction.status === 'success') return 'success';
  if (transaction.status === 'rejected') return 'declined';
  return (await findOpenRedirectOf(deps.storage, transaction.id)) ? 'pending-with-redirect' : 'pending';
}
