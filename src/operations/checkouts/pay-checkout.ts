import { echoRequest } from '../../catalogue/index.js';
import type { EndpointRequest } from '../../catalogue/request-types.generated.js';
import { stateAfterAttempt, type AttemptStatus } from '../../domain/checkouts/attempt.js';
import { GatewayError } from '../../results/gateway-error.js';
import { isPendingCode, isSuccessCode } from '../../results/catalogue.js';
import type { StoredCheckout } from '../../storage/repositories/checkouts.js';
import { findTransactionById } from '../../storage/repositories/transactions.js';
import { createPayment } from '../payments/create-payment.js';
import type { PaymentView } from '../payments/payment-response.js';
import { payWithRegistration } from '../registrations/pay-with-registration.js';
import { hiddenBrandsFor } from '../risk/session-risk.js';
import type { CheckoutDeps } from './checkout-deps.js';
import { storedCards, widgetPaymentParameters } from './checkout-parameters.js';
import { claimCheckout, runAttempt, validatedFor } from './claim-attempt.js';
import { checkoutGone, loadLiveCheckout } from './load-checkout.js';

export interface WidgetPostInput {
  readonly checkoutId: string;
  /** What the widget posted (already checked against the checkoutPayment catalogue). */
  readonly parameters: Readonly<Record<string, string>>;
  readonly gatewayBaseUrl?: string | undefined;
  readonly locale?: string | undefined;
  /** The shopper's browser's address: the risk profile that chooses the brands offered reads it. */
  readonly shopperIp?: string | undefined;
}

/**
 * POST /v1/checkouts/{id}/payment, from the shopper's browser: validate the merged request →
 * claim the checkout for this attempt → pay exactly as a server-to-server payment (or a payment
 * with a stored card) would, under the attempt's id → remember how the attempt ended. A declined
 * attempt leaves the checkout payable; a successful one closes it.
 */
export async function payCheckout(deps: CheckoutDeps, input: WidgetPostInput): Promise<PaymentView & { readonly entityId: string }> {
  const checkout = await loadLiveCheckout(deps, input.checkoutId);
  if (checkout.purpose !== 'payment') throw checkoutGone(checkout.id, 'this checkout registers an account: post to /v1/checkouts/{id}/registration');
  const payment = widgetPayment(checkout, input.parameters, deps.clock.now());
  await refuseHiddenBrand(deps, checkout, payment, input.shopperIp);
  const attemptId = await claimCheckout(deps, checkout, callbackUrlOf(checkout, input.parameters));
  const view = await runAttempt(deps, { checkoutId: checkout.id, attemptId }, () => pay(deps, checkout, payment, { ...input, attemptId }), {
    stateOf: (answer) => stateAfterAttempt(attemptStatusOf(answer)),
    wroteAnything: async () => (await findTransactionById(deps.storage, attemptId)) !== undefined,
  });
  // The checkout's entity: its connector-details setting applies to the widget's answer too.
  return { ...view, entityId: checkout.entityId };
}

type WidgetPayment =
  | { readonly kind: 'new-account'; readonly request: EndpointRequest<'payment'> }
  | { readonly kind: 'stored-card'; readonly registrationId: string; readonly request: EndpointRequest<'registrationPayment'> };

function widgetPayment(checkout: StoredCheckout, widget: Readonly<Record<string, string>>, now: Date): WidgetPayment {
  const merged = widgetPaymentParameters(checkout.parameters, widget);
  const registrationId = widget['registrationId'];
  if (registrationId === undefined) return { kind: 'new-account', request: validatedFor('payment', checkout, merged, now) };
  if (!storedCards(checkout.parameters).some((card) => card.id === registrationId)) {
    throw new GatewayError('100.150.200', { parameterErrors: [{ name: 'registrationId', value: registrationId, message: "is not one of the checkout's stored cards" }] });
  }
  const { createRegistration: _create, ...withoutCreate } = merged;
  return { kind: 'stored-card', registrationId, request: validatedFor('registrationPayment', checkout, withoutCreate, now) };
}

/** 100.400.319 "transaction declined by risk system". */
const HIDDEN_BRAND_CODE = '100.400.319';

/**
 * A brand the risk engine did not offer this shopper (widget-session.ts) is refused before
 * anything is written, whoever posts it: hiding it from the form alone would leave it one
 * request away. The profile is worked out again (read, not recorded) from the same facts.
 */
async function refuseHiddenBrand(deps: CheckoutDeps, checkout: StoredCheckout, payment: WidgetPayment, shopperIp: string | undefined): Promise<void> {
  const brand = payment.request.paymentBrand;
  if (brand === undefined) return;
  const hidden = await hiddenBrandsFor(deps, { entityId: checkout.entityId, parameters: checkout.parameters, ip: shopperIp });
  if (!hidden.includes(brand)) return;
  throw new GatewayError(HIDDEN_BRAND_CODE, { parameterErrors: [{ name: 'paymentBrand', value: brand, message: 'is not offered to this shopper' }] });
}

async function pay(deps: CheckoutDeps, checkout: StoredCheckout, payment: WidgetPayment, input: WidgetPostInput & { readonly attemptId: string }): Promise<PaymentView> {
  const common = { entityId: checkout.entityId, gatewayBaseUrl: input.gatewayBaseUrl, locale: input.locale, transactionId: input.attemptId, checkoutId: checkout.id };
  if (payment.kind === 'stored-card') {
    return payWithRegistration(deps, { ...common, registrationId: payment.registrationId, request: payment.request, echo: echoRequest(payment.request) });
  }
  return createPayment(deps, { ...common, request: payment.request, echo: echoRequest(payment.request) });
}

/**
 * Where the 29-minute callback would go: the merchant's own shopperResultUrl wins over the one the
 * widget posted (the form's action), which anyone holding the checkout id could choose.
 */
export function callbackUrlOf(checkout: StoredCheckout, widget: Readonly<Record<string, string>>): string | undefined {
  return checkout.parameters['shopperResultUrl'] ?? widget['shopperResultUrl'];
}

function attemptStatusOf(view: PaymentView): AttemptStatus {
  const { code } = view.result;
  if (isSuccessCode(code)) return 'success';
  if (isPendingCode(code)) return view.body['redirect'] ? 'pending-with-redirect' : 'pending';
  return 'declined';
}
