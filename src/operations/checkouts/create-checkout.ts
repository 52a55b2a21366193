import type { EndpointRequest } from '../../catalogue/request-types.generated.js';

type CheckoutRequest = EndpointRequest<'checkout'>;
import { checkoutTimes } from '../../domain/checkouts/attempt.js';
import { newCheckoutId } from '../../domain/checkouts/checkout-id.js';
import { resultOf, type ResultBody } from '../../http/envelope.js';
import { GatewayError } from '../../results/gateway-error.js';
import { insertCheckout } from '../../storage/repositories/checkouts.js';
import { findRegistration } from '../../storage/repositories/registrations.js';
import { checkTargetUrl } from '../webhooks/check-url.js';
import type { CheckoutDeps } from './checkout-deps.js';
import { checkoutPurpose, storedCards } from './checkout-parameters.js';

export interface CheckoutCreated {
  readonly id: string;
  readonly body: Record<string, string>;
  readonly result: ResultBody;
}

export interface CreateCheckoutInput {
  readonly entityId: string;
  readonly request: CheckoutRequest;
  /** The accepted parameters as posted (keptParameters): merged with the widget's at payment time. */
  readonly parameters: Readonly<Record<string, string>>;
}

/**
 * POST /v1/checkouts: the merchant's server prepares a payment (or a registration) for the
 * widget. Nothing is asked of a connector yet; the checkout only keeps the parameters, checked
 * now so the widget's payment cannot fail on them later.
 */
export async function createCheckout(deps: CheckoutDeps, input: CreateCheckoutInput): Promise<CheckoutCreated> {
  await checkStoredCards(deps, input.entityId, input.parameters);
  if (input.request.notificationUrl !== undefined) checkTargetUrl('notificationUrl', input.request.notificationUrl, deps.webhookTargets);
  const createdAt = deps.clock.now();
  const id = newCheckoutId(deps.ids.id(), deps.checkouts.idSuffix);
  const { expiresAt, callbackDueAt } = checkoutTimes(createdAt, deps.checkouts.lifetimeMs, deps.checkouts.callbackAfterMs);
  await insertCheckout(deps.storage, { id, entityId: input.entityId, purpose: checkoutPurpose(input.request), parameters: input.parameters, createdAt, expiresAt, callbackDueAt });
  const body: Record<string, string> = { id };
  if (input.request.integrity === true) body['integrity'] = deps.widgetIntegrity();
  return { id, body, result: resultOf('000.200.100') };
}

/** Each stored card a checkout offers must be a usable registration of the same entity. */
export async function checkStoredCards(deps: CheckoutDeps, entityId: string, parameters: Readonly<Record<string, string>>): Promise<void> {
  for (const { name, id } of storedCards(parameters)) {
    const registration = await findRegistration(deps.storage, entityId, id);
    if (!registration) throw new GatewayError('100.150.200', { parameterErrors: [{ name, value: id, message: 'no registration of this entity has this id' }] });
    if (registration.status !== 'active') throw new GatewayError(registration.status === 'pending' ? '100.150.201' : '100.150.202', { parameterErrors: [{ name, value: id, message: `registration is ${registration.status}` }] });
  }
}
