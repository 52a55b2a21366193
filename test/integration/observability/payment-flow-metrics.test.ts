import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INTERNAL_SIMULATOR } from '../../../src/connectors/simulator/index.js';
import { expireRedirects } from '../../../src/operations/redirects/expire-redirects.js';
import { createCheckout, widgetPost } from '../../support/checkouts.js';
import { testDatabases } from '../../support/databases.js';
import { paymentSeries, watchMetrics } from '../../support/metric-watch.js';
import { getPayment, postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../../support/payments.js';
import { drain, postSchedule, registrationWithInitialCit, scheduleWorker } from '../../support/schedules.js';
import { form, FORM_HEADERS, json, withAppAndMerchant, type TestApp } from '../../support/test-app.js';
import { BROWSER } from '../../support/three-d-secure.js';

const SIMULATOR = INTERNAL_SIMULATOR.connectorId;
const RESULT_URL = 'https://shop.example.com/result';
const HOUR_MS = 3_600_000;
const { 'card.cvv': _cvv, ...CARD_WITHOUT_CVV } = SAMPLE_CARD;
const WIDGET_CARD = { ...CARD_WITHOUT_CVV, 'card.cvv': '123' };
const BILLING = { 'billing.street1': 'Hauptstrasse 1', 'billing.city': 'Berlin', 'billing.postcode': '10115', 'billing.country': 'DE' };
const { 'billing.street1': _s, 'billing.city': _c, 'billing.postcode': _p, 'billing.country': _n, ...BROWSER_ONLY } = BROWSER;

function cardWith3ds(t: TestApp, merchant: Merchant, number: string, extra: Record<string, string> = {}) {
  return postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, 'card.number': number, shopperResultUrl: RESULT_URL, ...BROWSER, ...extra });
}

/** Submits a simulated page's button, as the shopper's browser does. */
function choose(t: TestApp, redirectUrl: string, outcome: string) {
  return t.app.inject({ method: 'POST', url: new URL(redirectUrl).pathname, headers: FORM_HEADERS, payload: form({ outcome }) });
}

for (const db of testDatabases()) {
  describe(`the payment path's other ways in, counted once each (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });

    it('a widget payment counts once; a widget post refused by validation counts once as validation', async () => {
      const checkout = json(await createCheckout(t, merchant, { amount: '92.00' }));
      const moved = await watchMetrics(t, {
        success: paymentSeries('DB', 'VISA', SIMULATOR, 'success'),
        validation: ['gateway_payments_total', { outcome: 'validation' }],
        all: ['gateway_payments_total', {}],
        amount: ['gateway_payment_amount_total', { currency: 'EUR', payment_type: 'DB' }],
      });
      const refused = await widgetPost(t, checkout.id, { ...WIDGET_CARD, 'card.number': '4200000000000001' });
      assert.equal(refused.statusCode, 400, refused.body);
      const paid = await widgetPost(t, checkout.id, WIDGET_CARD);
      assert.match(json(paid).result.code, SUCCESS_PATTERN, paid.body);
      assert.deepEqual(await moved(), { success: 1, validation: 1, all: 2, amount: 92 });
    });

    it('a scheduled run counts once, as the payment it makes', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const created = await postSchedule(t, merchant, registrationId, { 'job.dayOfMonth': '1', 'job.month': '*', 'job.hour': '9' });
      assert.equal(created.statusCode, 200, created.body);
      const moved = await watchMetrics(t, {
        run: paymentSeries('DB', 'VISA', SIMULATOR, 'success'),
        all: ['gateway_payments_total', {}],
      });
      const worker = scheduleWorker(t);
      t.clock.advance(10 * 24 * HOUR_MS);
      assert.equal(await drain(worker), 1);
      assert.deepEqual(await moved(), { run: 1, all: 1 });
    });

    it('3-D Secure frictionless: one authentication, and the payment counts once with its connector', async () => {
      const moved = await watchMetrics(t, {
        frictionless: ['gateway_three_d_secure_authentications_total', { outcome: 'frictionless' }],
        attempted: ['gateway_three_d_secure_authentications_total', { outcome: 'attempted' }],
        success: paymentSeries('DB', 'VISA', SIMULATOR, 'success'),
        redirects: ['gateway_redirects_total', {}],
      });
      assert.match(json(await cardWith3ds(t, merchant, '4200000000000091')).result.code, SUCCESS_PATTERN);
      assert.match(json(await cardWith3ds(t, merchant, '4200000000000109')).result.code, SUCCESS_PATTERN);
      assert.deepEqual(await moved(), { frictionless: 1, attempted: 1, success: 2, redirects: 0 });
    });

    it('a 3-D Secure challenge: opened, the pending answer without a connector, then passed, completed and the authorisation counted with its connector', async () => {
      const moved = await watchMetrics(t, {
        opened: ['gateway_redirects_total', { event: 'opened' }],
        completed: ['gateway_redirects_total', { event: 'completed' }],
        pending: paymentSeries('DB', 'VISA', 'none', 'pending'),
        success: paymentSeries('DB', 'VISA', SIMULATOR, 'success'),
        challenged: ['gateway_three_d_secure_authentications_total', { outcome: 'challenge' }],
        authorisations: ['gateway_connector_requests_total', { connector: SIMULATOR, operation: 'debit', outcome: 'success' }],
      });
      const body = json(await cardWith3ds(t, merchant, '4200000000000042'));
      assert.equal(body.result.code, '000.200.000');
      assert.deepEqual(await moved(), { opened: 1, completed: 0, pending: 1, success: 0, challenged: 0, authorisations: 0 });
      assert.equal((await choose(t, body.redirect.url, 'Y')).statusCode, 303);
      assert.match(json(await getPayment(t, merchant, body.id)).result.code, SUCCESS_PATTERN);
      assert.deepEqual(await moved(), { opened: 1, completed: 1, pending: 1, success: 1, challenged: 1, authorisations: 1 });
    });

    it('a failed challenge is a failed authentication and a 3-D Secure refusal without a connector', async () => {
      const body = json(await cardWith3ds(t, merchant, '4200000000000042'));
      const moved = await watchMetrics(t, {
        failed: ['gateway_three_d_secure_authentications_total', { outcome: 'failed' }],
        refused: paymentSeries('DB', 'VISA', 'none', 'three_d_secure'),
        completed: ['gateway_redirects_total', { event: 'completed' }],
      });
      assert.equal((await choose(t, body.redirect.url, 'N')).statusCode, 303);
      assert.equal(json(await getPayment(t, merchant, body.id)).result.code, '800.400.200');
      assert.deepEqual(await moved(), { failed: 1, refused: 1, completed: 1 });
    });

    it("a provider page: opened with the connector's pending answer, completed when the shopper approves, the success counted once more", async () => {
      const moved = await watchMetrics(t, {
        opened: ['gateway_redirects_total', { event: 'opened' }],
        completed: ['gateway_redirects_total', { event: 'completed' }],
        pending: paymentSeries('DB', 'PAYPAL', SIMULATOR, 'pending'),
        success: paymentSeries('DB', 'PAYPAL', SIMULATOR, 'success'),
        completions: ['gateway_connector_requests_total', { connector: SIMULATOR, operation: 'complete', outcome: 'success' }],
      });
      const body = json(await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'PAYPAL', shopperResultUrl: RESULT_URL }));
      assert.equal(body.result.code, '000.200.000');
      assert.equal((await choose(t, body.redirect.url, 'approve')).statusCode, 303);
      assert.deepEqual(await moved(), { opened: 1, completed: 1, pending: 1, success: 1, completions: 1 });
    });

    it('redirects nobody completes expire: a challenge is rejected (a failed authentication), a provider page goes to the status checks', async () => {
      // Other tests' redirects share the database: end them first.
      t.clock.advance(31 * 60_000);
      while ((await expireRedirects(t.app.gateway.payments, 100)) > 0);
      const challenge = json(await cardWith3ds(t, merchant, '4200000000000042'));
      const provider = json(await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'PAYPAL', shopperResultUrl: RESULT_URL }));
      const moved = await watchMetrics(t, {
        expired: ['gateway_redirects_total', { event: 'expired' }],
        failed: ['gateway_three_d_secure_authentications_total', { outcome: 'failed' }],
        refused: paymentSeries('DB', 'VISA', 'none', 'three_d_secure'),
        decided: ['gateway_payments_total', { brand: 'PAYPAL' }],
      });
      t.clock.advance(31 * 60_000);
      assert.equal(await expireRedirects(t.app.gateway.payments, 100), 2);
      assert.equal(json(await getPayment(t, merchant, challenge.id)).result.code, '100.390.124');
      assert.equal(json(await getPayment(t, merchant, provider.id)).result.code, '000.200.000');
      assert.deepEqual(await moved(), { expired: 2, failed: 1, refused: 1, decided: 0 });
    });

    it('a challenge the shopper leaves for a new widget attempt is abandoned: a failed authentication, and the new attempt counts on its own', async () => {
      const checkout = json(await createCheckout(t, merchant, { amount: '92.00', ...BILLING }));
      const first = json(await widgetPost(t, checkout.id, { ...WIDGET_CARD, 'card.number': '4200000000000042', ...BROWSER_ONLY }));
      assert.match(first.redirect?.url ?? '', /\/v1\/simulator\/acs\//, JSON.stringify(first));
      const moved = await watchMetrics(t, {
        abandoned: ['gateway_redirects_total', { event: 'abandoned' }],
        failed: ['gateway_three_d_secure_authentications_total', { outcome: 'failed' }],
        refused: paymentSeries('DB', 'VISA', 'none', 'three_d_secure'),
        success: paymentSeries('DB', 'VISA', SIMULATOR, 'success'),
      });
      assert.match(json(await widgetPost(t, checkout.id, WIDGET_CARD)).result.code, SUCCESS_PATTERN);
      assert.equal(json(await getPayment(t, merchant, first.id)).result.code, '100.390.124');
      assert.deepEqual(await moved(), { abandoned: 1, failed: 1, refused: 1, success: 1 });
    });
  });
}
