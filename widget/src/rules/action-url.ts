/**
 * Where the shopper goes after a payment that needs no redirect: the form's action with the
 * checkout's `id` and `resourcePath` appended, as OPPWA does (compatibility.md), keeping the
 * merchant's own query and fragment.
 */

export function resourcePathOf(checkoutId: string): string {
  return `/v1/checkouts/${checkoutId}/payment`;
}

export function returnUrl(action: string, checkoutId: string): string {
  const hashAt = action.indexOf('#');
  const base = hashAt === -1 ? action : action.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : action.slice(hashAt);
  const query = `id=${encodeURIComponent(checkoutId)}&resourcePath=${encodeURIComponent(resourcePathOf(checkoutId))}`;
  const joiner = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${joiner}${query}${fragment}`;
}
