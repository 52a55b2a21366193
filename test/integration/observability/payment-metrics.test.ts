import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INTERNAL_SIMULATOR } from '../../../src/connectors/simulator/index.js';
import { testDatabases } from '../../support/databases.js';
import { paymentSeries, watchMetric, watchMetrics } from '../../support/metric-watch.js';
import { cardPayment, postPayment, referencePayment, SAMPLE_CARD, type Merchant } from '../../support/payments.js';
import { resolutionWorker } from '../../support/resolution.js';
import { bearer, form, FORM_HEADERS, json, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../../support/test-app.js';
import { BROWSER } from '../../support/three-d-secure.js';

const SIMULATOR = INTERNAL_SIMULATOR.connectorId;
const RESULT_URL = 'https://shop.example.com/result';
const MINUTE = 60_000;

function blacklistEmail(t: TestApp, entityId: string, value: string) {
  return t.app.inject({ method: 'POST', url: `/admin/entities/${entityId}/risk/lists/black`, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form({ kind: 'email', value, by: 'bob', reason: 'chargebacks' }) });
}

for (const db of testDatabases()) {
  describe(`gateway_payments_total and the amounts, by outcome group (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, {}, (app, created) => {
      t = app;
      merchant = created;
    });

    it('a success counts once with its type, brand and connector, and adds its amount by currency', async () => {
      const moved = await watchMetrics(t, {
        success: paymentSeries('DB', 'VISA', SIMULATOR, 'success'),
        all: ['gateway_payments_total', {}],
        eur: ['gateway_payment_amount_total', { currency: 'EUR', payment_type: 'DB' }],
        usd: ['gateway_payment_amount_total', { currency: 'USD' }],
        entity: ['gateway_entity_payments_total', {}],
      });
      assert.equal((await cardPayment(t, merchant, 'DB', '12.34')).statusCode, 200);
      assert.equal((await postPayment(t, merchant, { amount: '5.00', currency: 'USD', paymentType: 'PA', ...SAMPLE_CARD })).statusCode, 200);
      const after = await moved();
      assert.equal(after.success, 1);
      assert.equal(after.all, 2);
      assert.equal(after.eur, 12.34);
      assert.equal(after.usd, 5);
      // No entity is listed in METRICS_ENTITIES: none is broken out.
      assert.equal(after.entity, 0);
    });

    it('a decline counts as declined with its connector and adds no amount', async () => {
      const moved = await watchMetrics(t, { declined: paymentSeries('DB', 'VISA', SIMULATOR, 'declined'), amount: ['gateway_payment_amount_total', {}] });
      const response = await cardPayment(t, merchant, 'DB', '10.00', { 'card.number': '4000000000000002' });
      assert.equal(json(response).result.code, '800.100.100');
      assert.deepEqual(await moved(), { declined: 1, amount: 0 });
    });

    it('a pending answer (the acquirer timed out: 9.99) counts as pending, and its later decline by the status check counts once more as declined', async () => {
      const moved = await watchMetrics(t, {
        pending: paymentSeries('DB', 'VISA', SIMULATOR, 'pending'),
        declined: paymentSeries('DB', 'VISA', SIMULATOR, 'declined'),
        timeouts: ['gateway_connector_requests_total', { connector: SIMULATOR, operation: 'debit', outcome: 'timeout' }],
        statusCalls: ['gateway_connector_requests_total', { connector: SIMULATOR, operation: 'status' }],
      });
      const body = json(await cardPayment(t, merchant, 'DB', '9.98'));
      assert.equal(body.result.code, '000.200.000');
      assert.deepEqual(await moved(), { pending: 1, declined: 0, timeouts: 1, statusCalls: 0 });
      const jobs = resolutionWorker(t);
      t.clock.advance(6 * MINUTE);
      await jobs.drain();
      t.clock.advance(1);
      await jobs.drain();
      assert.equal(json(await t.app.inject({ method: 'GET', url: `/v1/payments/${body.id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) })).result.code, '800.100.152');
      const after = await moved();
      assert.equal(after.pending, 1, 'the pending answer is not counted again');
      assert.equal(after.declined, 1, 'the decision is counted once');
      assert.ok(after.statusCalls >= 1);
    });

    it('requests refused by validation count as validation, with the type and brand they named when valid, else none', async () => {
      const moved = await watchMetrics(t, {
        named: paymentSeries('DB', 'VISA', 'none', 'validation'),
        unnamed: paymentSeries('none', 'none', 'none', 'validation'),
        all: ['gateway_payments_total', {}],
      });
      const missingAmount = await postPayment(t, merchant, { currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD });
      assert.equal(missingAmount.statusCode, 400);
      assert.ok(json(missingAmount).result.parameterErrors.length > 0);
      const unknownType = await postPayment(t, merchant, { amount: '1.00', currency: 'EUR', paymentType: 'XY' });
      assert.equal(unknownType.statusCode, 400);
      assert.deepEqual(await moved(), { named: 1, unnamed: 1, all: 2 });
    });

    it('a brand the gateway does not know is labelled other, never by what the request said', async () => {
      const moved = await watchMetric(t, 'gateway_payments_total', { brand: 'other' });
      await postPayment(t, merchant, { currency: 'EUR', paymentType: 'DB', paymentBrand: 'MYPRIVATELABEL7', 'card.number': '4200000000000000' });
      assert.equal(await moved(), 1);
    });

    it('a risk refusal and a 3-D Secure refusal get their groups from the result code, without a connector', async () => {
      const risky = await t.createMerchant('Risky shop');
      assert.equal((await blacklistEmail(t, risky.entityId, 'fraud@example.com')).statusCode, 200);
      const moved = await watchMetrics(t, {
        risk: paymentSeries('DB', 'VISA', 'none', 'risk'),
        threeDSecure: paymentSeries('DB', 'VISA', 'none', 'three_d_secure'),
        authenticationErrors: ['gateway_three_d_secure_authentications_total', { outcome: 'error' }],
        connectorCalls: ['gateway_connector_requests_total', {}],
      });
      const refused = await cardPayment(t, risky, 'DB', '92.00', { 'customer.givenName': 'Jane', 'customer.surname': 'Jones', 'customer.email': 'fraud@example.com' });
      assert.equal(json(refused).result.code, '800.300.200');
      const failed = await cardPayment(t, merchant, 'DB', '92.00', { 'card.number': '4012001037461114', shopperResultUrl: RESULT_URL, ...BROWSER });
      assert.equal(json(failed).result.code, '100.390.112');
      assert.deepEqual(await moved(), { risk: 1, threeDSecure: 1, authenticationErrors: 1, connectorCalls: 0 });
    });

    it('captures and refunds count with their own type; a refused capture counts as validation', async () => {
      const pa = json(await cardPayment(t, merchant, 'PA', '50.00'));
      const moved = await watchMetrics(t, {
        captured: paymentSeries('CP', 'VISA', SIMULATOR, 'success'),
        refunded: paymentSeries('RF', 'VISA', SIMULATOR, 'success'),
        refused: ['gateway_payments_total', { payment_type: 'CP', outcome: 'validation' }],
        capturedAmount: ['gateway_payment_amount_total', { currency: 'EUR', payment_type: 'CP' }],
        captureCalls: ['gateway_connector_requests_total', { connector: SIMULATOR, operation: 'capture', outcome: 'success' }],
      });
      const capture = await referencePayment(t, merchant, pa.id, 'CP', '50.00');
      assert.equal(capture.statusCode, 200);
      assert.equal((await referencePayment(t, merchant, json(capture).id, 'RF', '20.00')).statusCode, 200);
      assert.equal((await referencePayment(t, merchant, pa.id, 'CP', '1.00')).statusCode, 400, 'nothing left to capture');
      assert.deepEqual(await moved(), { captured: 1, refunded: 1, refused: 1, capturedAmount: 50, captureCalls: 1 });
    });

    it('a replayed Idempotency-Key answer is not counted again', async () => {
      const moved = await watchMetric(t, 'gateway_payments_total');
      const headers = { 'idempotency-key': 'metrics-replay-1' };
      const fields = { amount: '3.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD };
      const first = await postPayment(t, merchant, fields, headers);
      const replay = await postPayment(t, merchant, fields, headers);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(json(replay).id, json(first).id);
      assert.equal(await moved(), 1);
    });

    it('the counters reach the scrape in the Prometheus text format', async () => {
      await cardPayment(t, merchant, 'DB', '1.00');
      const scrape = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TEST_ADMIN_TOKEN) });
      assert.equal(scrape.statusCode, 200);
      assert.match(scrape.body, /^gateway_payments_total\{payment_type="DB",brand="VISA",connector="simulator",outcome="success"\} \d+$/m);
      assert.match(scrape.body, /^gateway_payment_amount_total\{currency="EUR",payment_type="DB"\} [\d.]+$/m);
      assert.match(scrape.body, /^gateway_connector_request_duration_seconds_count\{connector="simulator",operation="debit"\} \d+$/m);
      // Labels hold no ids and no card data.
      assert.doesNotMatch(scrape.body, new RegExp(merchant.entityId));
      assert.doesNotMatch(scrape.body, /4200000000000000/);
    });
  });

  describe(`METRICS_ENTITIES breaks out the listed entities (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, {}, (app, created) => {
      t = app;
      merchant = created;
    });

    it('counts a listed entity by id and outcome', async () => {
      // The app reads METRICS_ENTITIES at build: a second app over the same database lists this merchant.
      const { startTestApp } = await import('../../support/test-app.js');
      const listed = await startTestApp(t.storage, { env: { METRICS_ENTITIES: merchant.entityId } });
      try {
        const moved = await watchMetric(listed, 'gateway_entity_payments_total', { entity: merchant.entityId, outcome: 'success' });
        assert.equal((await cardPayment(listed, merchant, 'DB', '2.00')).statusCode, 200);
        assert.equal(await moved(), 1);
      } finally {
        await listed.close();
      }
    });
  });
}
