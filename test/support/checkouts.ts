import type { Merchant } from './payments.js';
import { bearer, form, FORM_HEADERS, type TestApp } from './test-app.js';

/** Where the widget form's action sends the shopper in these tests. */
export const RESULT_URL = 'https://shop.example.com/result?order=17';

/** POST /v1/checkouts as the merchant's server sends it: a 92.00 EUR debit unless the fields say otherwise. */
export function createCheckout(t: TestApp, merchant: Merchant, fields: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/checkouts',
    headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
    payload: form({ entityId: merchant.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...fields }),
  });
}

/** What the widget posts from the shopper's browser: no credential but the checkout id. */
export function widgetPost(t: TestApp, checkoutId: string, fields: Record<string, string>, purpose = 'payment') {
  return t.app.inject({ method: 'POST', url: `/v1/checkouts/${checkoutId}/${purpose}`, headers: FORM_HEADERS, payload: form({ shopperResultUrl: RESULT_URL, ...fields }) });
}

export function checkoutStatus(t: TestApp, merchant: Merchant, checkoutId: string, purpose = 'payment') {
  return t.app.inject({ method: 'GET', url: `/v1/checkouts/${checkoutId}/${purpose}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
}

