/**
 * Where the shopper goes after a payment that needs no redirect: the form's action with the
 * checkout's `id` and `resourcePath` appended, as OPPWA does (compatibility.md), keeping the
 * merchant's own query and fragment.
 */

/** What the checkout makes: a payment, or (createRegistration=true without paymentType) a registration. */
export type CheckoutPurpose = 'payment' | 'registration';

export function resourcePathOf(checkoutId: string, purpose: CheckoutPurpose = 'payment'): string {
  return `/v1/checkouts/${checkoutId}/${purpose}`;
}

export function returnUrl(action: string, checkoutId: string, purpose: CheckoutPurpose = 'payment'): string {
  const hashAt = action.indexOf('#');
  const base = hashAt === -1 ? action : action.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : action.slice(hashAt);
  const query = `id=${encodeURIComponent(checkoutId)}&resourcePath=${encodeURIComponent(resourcePathOf(checkoutId, purpose))}`;
  const joiner = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${joiner}${query}${fragment}`;
}
