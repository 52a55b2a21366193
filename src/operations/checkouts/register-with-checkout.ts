import { echoRequest } from '../../catalogue/index.js';
import { findRegistration } from '../../storage/repositories/registrations.js';
import { createRegistration } from '../registrations/create-registration.js';
import type { RegistrationView } from '../registrations/registration-record.js';
import type { CheckoutDeps } from './checkout-deps.js';
import { widgetPaymentParameters } from './checkout-parameters.js';
import { claimCheckout, runAttempt, validatedFor } from './claim-attempt.js';
import { checkoutGone, loadLiveCheckout } from './load-checkout.js';
import { callbackUrlOf, type WidgetPostInput } from './pay-checkout.js';

/** What a registration checkout keeps of the merchant's parameters that POST /v1/registrations does not take. */
const NOT_FOR_REGISTRATION = /^(createRegistration|amount|currency|paymentType|taxAmount|merchantInvoiceId|merchantMemo|notificationUrl)$/;

/**
 * POST /v1/checkouts/{id}/registration, from the shopper's browser: the account the shopper
 * entered is stored as POST /v1/registrations would store it (sealed by the vault, REGISTRATION
 * notification), under the attempt's id. Nothing is charged; the checkout is then used up.
 */
export async function registerWithCheckout(deps: CheckoutDeps, input: WidgetPostInput): Promise<RegistrationView> {
  const checkout = await loadLiveCheckout(deps, input.checkoutId);
  if (checkout.purpose !== 'registration') throw checkoutGone(checkout.id, 'this checkout makes a payment: post to /v1/checkouts/{id}/payment');
  const merged = Object.fromEntries(Object.entries(widgetPaymentParameters(checkout.parameters, input.parameters)).filter(([name]) => !NOT_FOR_REGISTRATION.test(name)));
  const request = validatedFor('registration', checkout, merged, deps.clock.now());
  const attemptId = await claimCheckout(deps, checkout, callbackUrlOf(checkout, input.parameters));
  return runAttempt(deps, { checkoutId: checkout.id, attemptId }, () => createRegistration(deps, { entityId: checkout.entityId, request, echo: echoRequest(request), registrationId: attemptId }), {
    stateOf: () => 'completed',
    wroteAnything: async () => (await findRegistration(deps.storage, checkout.entityId, attemptId)) !== undefined,
  });
}
