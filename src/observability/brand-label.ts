import { CARD_BRANDS } from '../domain/card.js';
import { ASYNCHRONOUS_BRANDS } from '../domain/payment-brands.js';

/**
 * paymentBrand is any 32 letters and digits (private-label brands pass unchecked), so a label
 * taken from it would grow with whatever merchants send: the brands the gateway knows keep their
 * name, anything else is `other`.
 */
const KNOWN_BRANDS: ReadonlySet<string> = new Set([
  ...CARD_BRANDS.map((card) => card.brand),
  ...ASYNCHRONOUS_BRANDS.map((entry) => entry.brand),
  // The defaults payment-method.ts gives a payment without paymentBrand.
  'UNKNOWN', 'DIRECTDEBIT_SEPA', 'VIRTUAL', 'WALLETA', 'WALLETB', 'WALLETC',
]);

/** The catalogue's form of paymentBrand: a refused request's brand outside it is no brand at all. */
const BRAND_FORM = /^[a-zA-Z0-9_]{1,32}$/;

export function brandLabel(brand: string | undefined): string {
  if (brand === undefined || !BRAND_FORM.test(brand)) return 'none';
  return KNOWN_BRANDS.has(brand) ? brand : 'other';
}
