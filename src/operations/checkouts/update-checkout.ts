import { validateRequest, type RequestBody } from '../../catalogue/index.js';
import { ATTEMPT_IN_PROGRESS } from '../../domain/checkouts/attempt.js';
import { resultOf } from '../../http/envelope.js';
import { GatewayError } from '../../results/gateway-error.js';
import { updateCheckoutParameters } from '../../storage/repositories/checkouts.js';
import type { CheckoutDeps } from './checkout-deps.js';
import type { CheckoutCreated } from './create-checkout.js';
import { checkStoredCards } from './create-checkout.js';
import { checkoutPurpose } from './checkout-parameters.js';
import { loadOwnCheckout } from './load-checkout.js';

export interface UpdateCheckoutInput {
  readonly entityId: string;
  readonly checkoutId: string;
  /** The accepted parameters as posted (keptParameters): they replace the checkout's of the same name. */
  readonly parameters: Readonly<Record<string, string>>;
  /** The request's `integrity` as posted: checked with the rest, never kept. */
  readonly integrity?: string | undefined;
}

/**
 * POST /v1/checkouts/{id}: the merchant changes a checkout before the shopper pays (a new amount
 * after a voucher, another stored card …). The merged parameters are checked as a new checkout
 * would be, and replace the old ones only while nobody is paying: the same conditional UPDATE
 * that a widget attempt's claim competes with.
 */
export async function updateCheckout(deps: CheckoutDeps, input: UpdateCheckoutInput): Promise<CheckoutCreated> {
  const checkout = await loadOwnCheckout(deps, input.entityId, input.checkoutId);
  const merged = { ...checkout.parameters, ...input.parameters };
  const result = validateRequest('checkout', { ...merged, entityId: input.entityId, ...(input.integrity !== undefined ? { integrity: input.integrity } : {}) } as RequestBody, { now: deps.clock.now(), unknownParameters: 'reject' });
  if (!result.ok) throw new GatewayError(result.code, { parameterErrors: result.parameterErrors });
  if (checkoutPurpose(result.request) !== checkout.purpose) {
    throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'paymentType', value: merged['paymentType'] ?? '', message: 'cannot turn a payment checkout into a registration checkout or back' }] });
  }
  await checkStoredCards(deps, input.entityId, merged);
  if (checkout.state !== 'open' || !(await updateCheckoutParameters(deps.storage, checkout, merged, deps.clock.now()))) {
    throw new GatewayError(ATTEMPT_IN_PROGRESS);
  }
  const body: Record<string, string> = { id: checkout.id };
  if (result.request.integrity === true) body['integrity'] = deps.widgetIntegrity();
  return { id: checkout.id, body, result: resultOf('000.200.101') };
}
