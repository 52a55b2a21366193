import { resultOf, type ResultBody } from '../../http/envelope.js';
import { markStatusFetched, type CheckoutPurpose, type StoredCheckout } from '../../storage/repositories/checkouts.js';
import { findRegistration } from '../../storage/repositories/registrations.js';
import { findTransaction } from '../../storage/repositories/transactions.js';
import type { OperationDeps } from '../deps.js';
import { viewOfStored } from '../payments/payment-response.js';
import { viewOfStoredRegistration } from '../registrations/registration-record.js';
import { checkoutGone, loadOwnCheckout } from './load-checkout.js';

export interface CheckoutStatusView {
  readonly body: Record<string, unknown>;
  readonly result: ResultBody;
}

/** Before the shopper paid (or while the widget's attempt is being made): transaction pending. */
const NOT_PAID_YET: CheckoutStatusView = { body: {}, result: resultOf('000.200.000') };

/**
 * GET /v1/checkouts/{id}/payment (or …/registration) by the merchant's server: pending before
 * the shopper paid, then the latest attempt as GET /v1/payments/{id} shows it (its own id). Reading
 * an attempt's result is what makes its 29-minute shopper result callback unnecessary.
 */
export async function checkoutStatus(deps: OperationDeps, input: { readonly entityId: string; readonly checkoutId: string; readonly purpose: CheckoutPurpose }): Promise<CheckoutStatusView> {
  const checkout = await loadOwnCheckout(deps, input.entityId, input.checkoutId);
  if (checkout.purpose !== input.purpose) throw checkoutGone(checkout.id, `this checkout is a ${checkout.purpose} checkout: ask /v1/checkouts/{id}/${checkout.purpose}`);
  const view = await latestAttemptView(deps, checkout);
  // Asking before the shopper paid tells the merchant nothing: the callback stays wanted.
  if (view !== NOT_PAID_YET) await markStatusFetched(deps.storage, checkout.id, deps.clock.now());
  return view;
}

async function latestAttemptView(deps: OperationDeps, checkout: StoredCheckout): Promise<CheckoutStatusView> {
  if (!checkout.attemptId) return NOT_PAID_YET;
  if (checkout.purpose === 'registration') {
    const registration = await findRegistration(deps.storage, checkout.entityId, checkout.attemptId);
    return registration ? viewOfStoredRegistration(registration) : NOT_PAID_YET;
  }
  const transaction = await findTransaction(deps.storage, checkout.entityId, checkout.attemptId);
  return transaction ? viewOfStored(transaction.response) : NOT_PAID_YET;
}
