import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getPayment, postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { testDatabases } from '../support/databases.js';
import { bearer, form, FORM_HEADERS, json, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { BROWSER } from '../support/three-d-secure.js';

/**
 * 3-D Secure's amount and channels (docs/api.md, "3-D Secure"): threeDSecure.amount (else
 * risk.amount) is what the shopper authenticates, never what risk rules count; threeDSecure.deviceInfo
 * runs the app-based flow, whose challenge is the SDK's, not a browser redirect; and a request
 * that cannot be authenticated hears everything it lacks in one answer.
 */

const RESULT_URL = 'https://shop.example.com/result';
const CHALLENGE_CARD = '4200000000000042';
const FRICTIONLESS_CARD = '4200000000000091';
const BILLING = { 'billing.street1': 'Hauptstrasse 1', 'billing.city': 'Berlin', 'billing.postcode': '10115', 'billing.country': 'DE' };
/** An opaque stand-in for the mobile SDK's encrypted authRequestParams. */
const DEVICE_INFO = 'eyJzZGtBcHBJRCI6InNpbXVsYXRlZCJ9.c2ltdWxhdGVkLWF1dGgtcmVxdWVzdC1wYXJhbXM';

function pay(t: TestApp, merchant: Merchant, fields: Record<string, string>) {
  return postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, shopperResultUrl: RESULT_URL, ...fields });
}

function openAcsPage(t: TestApp, url: string) {
  return t.app.inject({ method: 'GET', url: new URL(url).pathname, headers: { 'accept-language': 'en' } });
}

function decodeSignedContent(jws: string): { acsURL: string; acsTransID: string; threeDSServerTransID: string } {
  const [header, payload, signature] = jws.split('.');
  assert.deepEqual(JSON.parse(Buffer.from(header!, 'base64url').toString()), { alg: 'none' });
  assert.equal(signature, '', 'the simulator does not sign');
  return JSON.parse(Buffer.from(payload!, 'base64url').toString());
}

const names = (body: Record<string, any>): string[] => ((body['result'].parameterErrors ?? []) as { name: string }[]).map((e) => e.name);

for (const db of testDatabases()) {
  describe(`3-D Secure amounts and channels (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, {}, (app, created) => {
      t = app;
      merchant = created;
    });

    it('the ACS shows threeDSecure.amount (else risk.amount): the amount authenticated, not the charge', async () => {
      const stated = json(await pay(t, merchant, { ...BROWSER, 'card.number': CHALLENGE_CARD, 'threeDSecure.amount': '150.00', 'threeDSecure.currency': 'USD' }));
      assert.equal(stated.result.code, '000.200.000');
      assert.equal(stated.amount, '92.00', 'the charge stays the payment amount');
      const page = await openAcsPage(t, stated.redirect.url);
      assert.match(page.body, /150\.00/);
      assert.match(page.body, /\$|USD/);
      assert.doesNotMatch(page.body, /92\.00/);
      const risk = json(await pay(t, merchant, { ...BROWSER, 'card.number': CHALLENGE_CARD, 'risk.amount': '75.50' }));
      assert.match((await openAcsPage(t, risk.redirect.url)).body, /75\.50/);
      const plain = json(await pay(t, merchant, { ...BROWSER, 'card.number': CHALLENGE_CARD }));
      assert.match((await openAcsPage(t, plain.redirect.url)).body, /92\.00/);
    });

    it('risk rules count the payment amount whatever threeDSecure.amount says', async () => {
      const limited = await t.createMerchant('Limited shop');
      const rules = JSON.stringify({ amountLimits: [{ currency: 'EUR', max: '100.00' }] });
      const set = await t.app.inject({ method: 'PUT', url: `/admin/entities/${limited.entityId}/risk/rules`, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form({ rules, by: 'alice' }) });
      assert.equal(set.statusCode, 200, set.body);
      const lowered = json(await pay(t, limited, { amount: '150.00', 'threeDSecure.amount': '10.00', 'risk.amount': '10.00' }));
      assert.equal(lowered.result.code, '100.550.312');
      const raised = json(await pay(t, limited, { amount: '90.00', 'threeDSecure.amount': '500.00' }));
      assert.match(raised.result.code, SUCCESS_PATTERN);
    });

    it('app channel: threeDSecure.deviceInfo needs no browser data; a challenge answers the SDK data, no redirect', async () => {
      const body = json(await pay(t, merchant, { ...BILLING, 'card.number': CHALLENGE_CARD, 'threeDSecure.deviceInfo': DEVICE_INFO }));
      assert.equal(body.result.code, '000.200.000');
      assert.equal(body.redirect, undefined, 'no browser redirect on the app channel');
      assert.equal(body.threeDSecure.authenticationStatus, 'C');
      assert.equal(body.threeDSecure.version, '2.2.0');
      assert.equal(body.threeDSecure.acsReferenceNumber, 'SIMULATED-ACS-REF-3DS2');
      assert.equal(body.threeDSecure.deviceInfo, undefined, 'deviceInfo is never echoed');
      const content = decodeSignedContent(body.threeDSecure.acsSignedContent);
      assert.equal(content.acsTransID, body.threeDSecure.acsTransactionId);
      assert.equal(content.threeDSServerTransID, body.threeDSecure.dsTransactionId);
      // The SDK answers the ACS's native challenge at acsURL, as the browser page's buttons do.
      const done = await t.app.inject({ method: 'POST', url: new URL(content.acsURL).pathname, headers: FORM_HEADERS, payload: form({ outcome: 'Y' }) });
      assert.equal(done.statusCode, 303);
      const after = json(await getPayment(t, merchant, body.id));
      assert.match(after.result.code, SUCCESS_PATTERN);
      assert.equal(after.threeDSecure.authenticationStatus, 'Y');
      assert.equal(after.threeDSecure.acsSignedContent, undefined, 'the challenge data ends with the challenge');
      assert.equal(after.threeDSecure.acsReferenceNumber, undefined);
    });

    it('app channel: a frictionless card is decided in the first answer', async () => {
      const body = json(await pay(t, merchant, { ...BILLING, 'card.number': FRICTIONLESS_CARD, 'threeDSecure.deviceInfo': DEVICE_INFO }));
      assert.match(body.result.code, SUCCESS_PATTERN);
      assert.equal(body.threeDSecure.authenticationStatus, 'Y');
      assert.equal(body.threeDSecure.eci, '05');
    });

    it('app channel, standalone: POST /v1/threeDSecure answers the SDK data', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/threeDSecure',
        headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: merchant.entityId, amount: '92.00', currency: 'EUR', ...SAMPLE_CARD, 'card.number': CHALLENGE_CARD, shopperResultUrl: RESULT_URL, ...BILLING, 'threeDSecure.deviceInfo': DEVICE_INFO }),
      });
      const body = json(response);
      assert.equal(body.result.code, '000.200.000', response.body);
      assert.equal(body.redirect, undefined);
      const content = decodeSignedContent(body.threeDSecure.acsSignedContent);
      await t.app.inject({ method: 'POST', url: new URL(content.acsURL).pathname, headers: FORM_HEADERS, payload: form({ outcome: 'Y' }) });
      const got = json(await t.app.inject({ method: 'GET', url: `/v1/threeDSecure/${body.id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) }));
      assert.match(got.result.code, SUCCESS_PATTERN);
      assert.deepEqual([got.threeDSecure.authenticationStatus, got.threeDSecure.acsSignedContent], ['Y', undefined]);
    });

    it('one answer lists everything an authentication lacks, each field its own entry pointing to the docs', async () => {
      const browser = json(await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, 'card.number': CHALLENGE_CARD }));
      assert.equal(browser.result.code, '100.370.101');
      assert.deepEqual(names(browser), [
        'shopperResultUrl',
        'customer.browser.acceptHeader',
        'customer.browser.language',
        'customer.browser.screenHeight',
        'customer.browser.screenWidth',
        'customer.browser.timezone',
        'customer.browser.userAgent',
        'customer.browser.javaEnabled',
        'billing.street1',
        'billing.city',
        'billing.postcode',
        'billing.country',
      ]);
      for (const entry of browser.result.parameterErrors) assert.match(entry.message, /docs\/api\.md#what-an-authentication-needs/);
      const app = json(await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, 'card.number': CHALLENGE_CARD, 'threeDSecure.deviceInfo': DEVICE_INFO }));
      assert.deepEqual(names(app), ['shopperResultUrl', 'billing.street1', 'billing.city', 'billing.postcode', 'billing.country'], 'the app channel needs no browser');
    });

    it('NF-USECASE is required with network F data for a payment authentication', async () => {
      const refused = await pay(t, merchant, { ...BROWSER, 'threeDSecure.schemeData[NF-ITEMSNB]': '2' });
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(names(json(refused)), ['threeDSecure.schemeData[NF-USECASE]']);
      const accepted = await pay(t, merchant, { ...BROWSER, 'threeDSecure.schemeData[NF-ITEMSNB]': '2', 'threeDSecure.schemeData[NF-USECASE]': '01' });
      assert.match(json(accepted).result.code, SUCCESS_PATTERN);
      const npa = await pay(t, merchant, { ...BROWSER, 'threeDSecure.schemeData[NF-ITEMSNB]': '2', 'threeDSecure.npa': 'true', 'threeDSecure.authenticationInd': 'ADD_CARD' });
      assert.match(json(npa).result.code, SUCCESS_PATTERN);
    });
  });
}
