import type { EndpointRequest } from '../../catalogue/request-types.generated.js';

type CheckoutRequest = EndpointRequest<'checkout'>;
import type { RequestBody } from '../../catalogue/types.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { CheckoutPurpose } from '../../storage/repositories/checkouts.js';

/** Most stored cards one checkout offers. */
export const MAX_STORED_CARDS = 10;

/** Never kept with a checkout: the credential and entity (the checkout has its own), and the one-off `integrity` flag. */
const NOT_KEPT = /^(entityId|integrity|authentication\..*)$/;
const STORED_CARD = /^registrations\[(\d+)\]\.id$/;

/** The merchant's parameters as a checkout keeps them: single strings, without what is not kept or was ignored. */
export function keptParameters(body: RequestBody, ignored: readonly string[] = []): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (NOT_KEPT.test(name) || ignored.includes(name) || typeof value !== 'string') continue;
    kept[name] = value;
  }
  return kept;
}

/** The stored cards a checkout offers, in index order; more than ten is refused naming the first too many. */
export function storedCards(parameters: Readonly<Record<string, string>>): { readonly name: string; readonly id: string }[] {
  const cards = Object.entries(parameters)
    .map(([name, id]) => ({ index: Number(STORED_CARD.exec(name)?.[1] ?? -1), name, id }))
    .filter((card) => card.index >= 0)
    .sort((a, b) => a.index - b.index);
  const tooMany = cards[MAX_STORED_CARDS];
  if (tooMany) throw new GatewayError('200.300.404', { parameterErrors: [{ name: tooMany.name, value: tooMany.id, message: `at most ${MAX_STORED_CARDS} stored cards` }] });
  return cards.map(({ name, id }) => ({ name, id }));
}

/**
 * A checkout that only stores the shopper's account (the widget posts to …/registration): it
 * asks for createRegistration=true and names no paymentType.
 */
export function checkoutPurpose(request: Pick<CheckoutRequest, 'createRegistration' | 'paymentType'>): CheckoutPurpose {
  return request.createRegistration === true && request.paymentType === undefined ? 'registration' : 'payment';
}

/** Parameters only a checkout creation takes: they shape the checkout, not the payment. */
const CHECKOUT_ONLY = /^(overridePaymentType\[.*\]|registrations\[\d+\]\.id|overrideHolder)$/;
const OVERRIDE = /^overridePaymentType\[(.*)\]$/;

/**
 * What the widget may post but the merchant's checkout decides when it names it: the address the
 * shopper returns to after a provider page or a challenge. The widget always posts its form's
 * action there, and anyone holding the checkout id can post another (a phishing page); the
 * merchant's own value is the one docs/api.md promises. Ignored rather than refused, because
 * every honest widget sends it.
 */
const MERCHANT_DECIDES = new Set(['shopperResultUrl']);

/** Whether the widget's value of `name` goes into the payment: never over the merchant's own. */
function widgetMaySet(checkout: Readonly<Record<string, string>>, name: string): boolean {
  return name !== 'registrationId' && !(MERCHANT_DECIDES.has(name) && checkout[name] !== undefined);
}

/**
 * The payment the widget makes: the merchant's parameters, then the shopper's (account data, the
 * brand, SHOPPER_ custom parameters, where to come back unless the merchant said so), and the
 * brand's own payment type where overridePaymentType names one. The shopper's post cannot change
 * the merchant's amount: the catalogue refuses those names on the widget's endpoint before this merge.
 */
export function widgetPaymentParameters(checkout: Readonly<Record<string, string>>, widget: Readonly<Record<string, string>>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(checkout)) if (!CHECKOUT_ONLY.test(name)) merged[name] = value;
  for (const [name, value] of Object.entries(widget)) if (widgetMaySet(checkout, name)) merged[name] = value;
  const brand = merged['paymentBrand'];
  const override = brand === undefined ? undefined : Object.entries(checkout).find(([name]) => OVERRIDE.exec(name)?.[1] === brand)?.[1];
  if (override) merged['paymentType'] = override;
  // A stored card's payment keeps the merchant's overrideHolder; a new card has no holder to override.
  if (widget['registrationId'] !== undefined && checkout['overrideHolder'] !== undefined) merged['overrideHolder'] = checkout['overrideHolder'];
  return merged;
}
