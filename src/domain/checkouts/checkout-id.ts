/**
 * Checkout ids as OPPWA issues them (compatibility.md): 32 upper-case hex characters, a dot and a
 * host suffix, within the specification's 32 to 48 characters of `a-z A-Z 0-9 . -`. The hex part
 * is 128 random bits: the id is the only credential the shopper's browser holds.
 */
const SUFFIX = /^[a-zA-Z0-9-]{1,15}$/;
const CHECKOUT_ID = /^[0-9A-F]{32}\.[a-zA-Z0-9-]{1,15}$/;

export function isCheckoutIdSuffix(value: string): boolean {
  return SUFFIX.test(value);
}

/** randomHex: 32 hex characters (the id generator's). */
export function newCheckoutId(randomHex: string, suffix: string): string {
  return `${randomHex.toUpperCase()}.${suffix}`;
}

/** Whether a path segment can name a checkout at all (anything else is "not found" without a query). */
export function isCheckoutId(value: string): boolean {
  return CHECKOUT_ID.test(value);
}

/** The status path the shopper's browser and the 29-minute callback hand the merchant. */
export function checkoutResourcePath(checkoutId: string, purpose: 'payment' | 'registration'): string {
  return `/v1/checkouts/${checkoutId}/${purpose}`;
}
