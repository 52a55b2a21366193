import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkoutStatus, createCheckout, RESULT_URL, widgetPost } from '../support/checkouts.js';
import { testDatabases } from '../support/databases.js';
import { SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, withAppAndMerchant, type TestApp } from '../support/test-app.js';

// Issue 29, item 11: where the shopper returns after a provider page or a 3-D Secure challenge.
// The merchant's checkout value wins; the widget's post (the form's action, which anyone holding
// the checkout id can choose) serves only a checkout that has none.

const MERCHANT_RESULT_URL = 'https://merchant.example.com/back?order=42';
const PHISHING_URL = 'https://evil.example/phish';
const CARD = { paymentBrand: SAMPLE_CARD.paymentBrand, 'card.number': SAMPLE_CARD['card.number'], 'card.holder': SAMPLE_CARD['card.holder'], 'card.expiryMonth': SAMPLE_CARD['card.expiryMonth'], 'card.expiryYear': SAMPLE_CARD['card.expiryYear'], 'card.cvv': SAMPLE_CARD['card.cvv'] };
const CHALLENGE_CARD = { ...CARD, 'card.number': '4200000000000042' };
const BILLING = { 'billing.street1': 'Hauptstrasse 1', 'billing.city': 'Berlin', 'billing.postcode': '10115', 'billing.country': 'DE' };
const BROWSER = { 'customer.browser.language': 'de-DE', 'customer.browser.screenHeight': '1080', 'customer.browser.screenWidth': '1920', 'customer.browser.timezone': '-60', 'customer.browser.javaEnabled': 'false', 'customer.browser.screenColorDepth': '24' };

async function newCheckout(t: TestApp, merchant: Merchant, fields: Record<string, string> = {}): Promise<string> {
  const response = await createCheckout(t, merchant, { ...BILLING, ...fields });
  assert.equal(response.statusCode, 200, response.body);
  return json(response).id as string;
}

/** The widget's post as a browser sends it (the gateway completes the accept header and user agent from the request). */
function browserPost(t: TestApp, checkoutId: string, fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/checkouts/${checkoutId}/payment`,
    headers: { ...FORM_HEADERS, accept: 'text/html,application/xhtml+xml', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' },
    payload: form({ ...BROWSER, ...fields }),
  });
}

/** Follows a provider's page or the ACS to its end with the shopper's choice: the gateway's 303. */
async function completeRedirect(t: TestApp, redirect: { url: string; parameters: { name: string; value: string }[] }, outcome: string) {
  const path = new URL(redirect.url).pathname;
  if (redirect.parameters.length > 0) {
    const page = await t.app.inject({ method: 'POST', url: path, headers: FORM_HEADERS, payload: form(Object.fromEntries(redirect.parameters.map((p) => [p.name, p.value]))) });
    assert.equal(page.statusCode, 200, page.body);
  }
  const done = await t.app.inject({ method: 'POST', url: path, headers: FORM_HEADERS, payload: form({ outcome }) });
  assert.equal(done.statusCode, 303, done.body);
  return new URL(done.headers.location as string);
}

function assertReturnsTo(location: URL, expected: string, checkoutId: string): void {
  const wanted = new URL(expected);
  assert.equal(`${location.origin}${location.pathname}`, `${wanted.origin}${wanted.pathname}`, location.toString());
  for (const [name, value] of wanted.searchParams) assert.equal(location.searchParams.get(name), value);
  assert.equal(location.searchParams.get('id'), checkoutId);
  assert.equal(location.searchParams.get('resourcePath'), `/v1/checkouts/${checkoutId}/payment`);
}

for (const db of testDatabases()) {
  describe(`the shopper's return from a widget payment (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, {}, (app, created) => {
      t = app;
      merchant = created;
    });

    it("a provider page returns the shopper to the merchant's shopperResultUrl, not the one the widget posted", async () => {
      const id = await newCheckout(t, merchant, { shopperResultUrl: MERCHANT_RESULT_URL });
      const pending = json(await widgetPost(t, id, { paymentBrand: 'PAYPAL', shopperResultUrl: PHISHING_URL }));
      assert.equal(pending.result.code, '000.200.000', JSON.stringify(pending));
      assertReturnsTo(await completeRedirect(t, pending.redirect, 'approve'), MERCHANT_RESULT_URL, id);
      assert.match(json(await checkoutStatus(t, merchant, id)).result.code, SUCCESS_PATTERN);
    });

    it("a 3-D Secure challenge returns the shopper to the merchant's shopperResultUrl, not the one the widget posted", async () => {
      const id = await newCheckout(t, merchant, { shopperResultUrl: MERCHANT_RESULT_URL });
      const pending = json(await browserPost(t, id, { ...CHALLENGE_CARD, shopperResultUrl: PHISHING_URL }));
      assert.equal(pending.result.code, '000.200.000', JSON.stringify(pending));
      assert.match(pending.redirect.url, /\/v1\/simulator\/acs\//);
      assertReturnsTo(await completeRedirect(t, pending.redirect, 'Y'), MERCHANT_RESULT_URL, id);
      assert.match(json(await checkoutStatus(t, merchant, id)).result.code, SUCCESS_PATTERN);
    });

    it("the payment and its stored redirect keep the merchant's address; nothing points at the widget's", async () => {
      const id = await newCheckout(t, merchant, { shopperResultUrl: MERCHANT_RESULT_URL });
      const pending = json(await widgetPost(t, id, { paymentBrand: 'PAYPAL', shopperResultUrl: PHISHING_URL }));
      const { rows } = await t.storage.query<{ url: string }>('SELECT shopper_result_url AS url FROM shopper_redirects WHERE transaction_id = $1', [pending.id]);
      assert.deepEqual(rows.map((row) => row.url), [MERCHANT_RESULT_URL]);
      const stored = await t.app.inject({ method: 'GET', url: `/v1/payments/${pending.id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
      assert.equal(stored.body.includes('evil.example'), false, stored.body);
    });

    it("without the merchant's shopperResultUrl the widget form's action serves the return, for a provider page and a challenge", async () => {
      const provider = await newCheckout(t, merchant);
      const paypal = json(await widgetPost(t, provider, { paymentBrand: 'PAYPAL' }));
      assertReturnsTo(await completeRedirect(t, paypal.redirect, 'approve'), RESULT_URL, provider);
      const challenge = await newCheckout(t, merchant);
      const card = json(await browserPost(t, challenge, { ...CHALLENGE_CARD, shopperResultUrl: RESULT_URL }));
      assertReturnsTo(await completeRedirect(t, card.redirect, 'Y'), RESULT_URL, challenge);
    });
  });
}
