/**
 * The specification's smaller rules (issue 34, item 10): a reversal is whole or refused; testMode
 * on the widget's posts is refused on the live system as on the merchant's API; each webhook is
 * sent the notification types it subscribed to, the specification's by default.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runWebhookCommandOn } from '../../src/cli/webhook-commands.js';
import type { WebhookPort } from '../../src/cli/webhook-port.js';
import { randomIds } from '../../src/domain/ids.js';
import { enqueueNotification } from '../../src/operations/webhooks/enqueue-notification.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, getPayment, referencePayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../support/test-app.js';

const ADMIN = { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS };
const CARD = { paymentBrand: SAMPLE_CARD.paymentBrand, 'card.number': SAMPLE_CARD['card.number'], 'card.holder': SAMPLE_CARD['card.holder'], 'card.expiryMonth': SAMPLE_CARD['card.expiryMonth'], 'card.expiryYear': SAMPLE_CARD['card.expiryYear'], 'card.cvv': SAMPLE_CARD['card.cvv'] };

for (const db of testDatabases()) {
  describe(`a reversal is whole or refused (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, {}, (app, created) => {
      t = app;
      merchant = created;
    });

    async function preauthorised(): Promise<string> {
      const pa = await cardPayment(t, merchant, 'PA', '92.00');
      assert.match(json(pa).result.code, SUCCESS_PATTERN, pa.body);
      return json(pa).id as string;
    }

    it('an RV for part of the amount is refused with 100.550.701 naming amount, and nothing is reversed', async () => {
      const id = await preauthorised();
      const partial = await referencePayment(t, merchant, id, 'RV', '10.00');
      assert.equal(partial.statusCode, 400, partial.body);
      assert.equal(json(partial).result.code, '100.550.701');
      assert.deepEqual(json(partial).result.parameterErrors, [{ name: 'amount', value: '10.00', message: 'a reversal undoes the whole payment: must be 92.00 or left out' }]);
      const { rows } = await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE parent_id = $1', [id]);
      assert.equal(rows[0]!.n, 0, 'no reversal row was written');
      // The PA is untouched: it can still be captured in part.
      const capture = await referencePayment(t, merchant, id, 'CP', '10.00');
      assert.match(json(capture).result.code, SUCCESS_PATTERN, capture.body);
    });

    it('an RV for more than the amount is refused the same way', async () => {
      const id = await preauthorised();
      assert.equal(json(await referencePayment(t, merchant, id, 'RV', '92.01')).result.code, '100.550.701');
    });

    it('an RV naming the whole amount in another currency is refused with 100.550.702 naming currency', async () => {
      const id = await preauthorised();
      const other = await referencePayment(t, merchant, id, 'RV', undefined, { amount: '92.00', currency: 'USD' });
      assert.equal(json(other).result.code, '100.550.702', other.body);
      assert.equal(json(other).result.parameterErrors[0].name, 'currency');
    });

    for (const [name, amount] of [['the whole amount', '92.00'], ['no amount', undefined]] as const) {
      it(`an RV with ${name} reverses the whole payment`, async () => {
        const id = await preauthorised();
        const reversal = await referencePayment(t, merchant, id, 'RV', amount);
        assert.match(json(reversal).result.code, SUCCESS_PATTERN, reversal.body);
        assert.equal(json(reversal).amount, '92.00');
        assert.equal(json(await getPayment(t, merchant, id)).id, id);
        assert.equal(json(await referencePayment(t, merchant, id, 'CP', '10.00')).result.code, '700.400.100', 'a reversed PA cannot be captured');
      });
    }
  });
}

describe('testMode on the widget\'s posts on the live system', () => {
  const https = { 'x-forwarded-proto': 'https' };
  let t: TestApp;
  let merchant: Merchant;
  before(async () => {
    t = await startTestApp(await testDatabases()[0]!.open(), { env: { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true' } });
    merchant = await t.createMerchant();
  });
  after(async () => {
    await t.close();
    await t.storage.close();
  });

  async function liveCheckout(): Promise<string> {
    const created = await t.app.inject({
      method: 'POST', url: '/v1/checkouts', headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS, ...https },
      payload: form({ entityId: merchant.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB' }),
    });
    assert.equal(json(created).result.code, '000.200.100', created.body);
    return json(created).id as string;
  }

  for (const prefix of ['/v1/checkouts', '/checkouts']) {
    for (const purpose of ['payment', 'registration']) {
      it(`POST ${prefix}/{id}/${purpose} with testMode answers 400 600.200.701, and writes nothing`, async () => {
        const id = await liveCheckout();
        const response = await t.app.inject({ method: 'POST', url: `${prefix}/${id}/${purpose}`, headers: { ...FORM_HEADERS, ...https }, payload: form({ ...CARD, testMode: 'INTERNAL' }) });
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(json(response).result.code, '600.200.701');
        assert.equal(json(response).result.description, 'testMode not allowed on production');
        const { rows } = await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE entity_id = $1', [merchant.entityId]);
        assert.equal(rows[0]!.n, 0);
      });
    }
  }

  it('the same post without testMode is not refused for it', async () => {
    const id = await liveCheckout();
    const response = await t.app.inject({ method: 'POST', url: `/v1/checkouts/${id}/payment`, headers: { ...FORM_HEADERS, ...https }, payload: form(CARD) });
    assert.notEqual(json(response).result.code, '600.200.701', response.body);
  });
});

for (const db of testDatabases()) {
  describe(`webhooks are sent the notification types they subscribe to (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, {}, (app, created) => {
      t = app;
      merchant = created;
    });

    async function register(types?: string): Promise<{ status: number; body: Record<string, any> }> {
      const response = await t.app.inject({ method: 'POST', url: '/admin/webhooks', headers: ADMIN, payload: form({ entity: merchant.entityId, url: 'https://shop.example.com/hooks', ...(types === undefined ? {} : { types }) }) });
      return { status: response.statusCode, body: json(response) };
    }

    async function deliveriesOf(webhookId: string): Promise<string[]> {
      const { rows } = await t.storage.query<{ type: string }>(
        `SELECT n.type FROM webhook_deliveries d JOIN notifications n ON n.id = d.notification_id WHERE d.webhook_id = $1 AND d.purpose = 'event' ORDER BY n.type`, [webhookId]);
      return rows.map((r) => r.type);
    }

    it('registration answers and lists the types: the specification\'s by default, canonical order, each once', async () => {
      const plain = await register();
      assert.equal(plain.status, 201);
      assert.deepEqual(plain.body.types, ['PAYMENT', 'REGISTRATION']);
      const asked = await register('risk, SCHEDULE,payment,PAYMENT');
      assert.deepEqual(asked.body.types, ['PAYMENT', 'SCHEDULE', 'RISK']);
      const listed = json(await t.app.inject({ method: 'GET', url: `/admin/webhooks/${asked.body.webhookId}`, headers: bearer(TEST_ADMIN_TOKEN) }));
      assert.deepEqual(listed.types, ['PAYMENT', 'SCHEDULE', 'RISK']);
    });

    for (const [types, message] of [['PAYMENT,REFUND', /unknown notification type REFUND/], [' , ', /at least one type/]] as const) {
      it(`types=${JSON.stringify(types)} is refused with 400 200.300.404 naming types`, async () => {
        const refused = await register(types);
        assert.equal(refused.status, 400);
        assert.equal(refused.body.result.code, '200.300.404');
        assert.equal(refused.body.result.parameterErrors[0].name, 'types');
        assert.match(refused.body.result.parameterErrors[0].message, message);
      });
    }

    it('the fan-out honours each webhook\'s types: a payment, a registration, a schedule and a risk event', async () => {
      const byDefault = (await register()).body.webhookId as string;
      const scheduleOnly = (await register('SCHEDULE')).body.webhookId as string;
      const everything = (await register('PAYMENT,REGISTRATION,SCHEDULE,RISK')).body.webhookId as string;
      await t.storage.query(`UPDATE webhooks SET status = 'active', activated_at = now() WHERE entity_id = $1`, [merchant.entityId]);

      const payment = await cardPayment(t, merchant, 'DB', '12.00');
      assert.match(json(payment).result.code, SUCCESS_PATTERN, payment.body);
      const registration = await t.app.inject({ method: 'POST', url: '/v1/registrations', headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS }, payload: form({ entityId: merchant.entityId, ...CARD }) });
      assert.match(json(registration).result.code, SUCCESS_PATTERN, registration.body);
      const deps = { clock: t.clock, ids: randomIds };
      await t.storage.transaction(async (tx) => {
        await enqueueNotification(tx, { entityId: merchant.entityId, type: 'SCHEDULE', action: 'CREATED', payload: { id: 's'.repeat(32) } }, deps);
        await enqueueNotification(tx, { entityId: merchant.entityId, type: 'RISK', transactionId: json(payment).id }, deps);
      });

      assert.deepEqual(await deliveriesOf(byDefault), ['PAYMENT', 'REGISTRATION']);
      assert.deepEqual(await deliveriesOf(scheduleOnly), ['SCHEDULE']);
      assert.deepEqual(await deliveriesOf(everything), ['PAYMENT', 'REGISTRATION', 'RISK', 'SCHEDULE']);
    });

    it('a notification no webhook subscribes to is not written at all', async () => {
      const other = await t.createMerchant('Quiet');
      await t.app.inject({ method: 'POST', url: '/admin/webhooks', headers: ADMIN, payload: form({ entity: other.entityId, url: 'https://shop.example.com/quiet' }) });
      await t.storage.query(`UPDATE webhooks SET status = 'active', activated_at = now() WHERE entity_id = $1`, [other.entityId]);
      const written = await t.storage.transaction((tx) => enqueueNotification(tx, { entityId: other.entityId, type: 'SCHEDULE', action: 'CREATED', payload: { id: 'q'.repeat(32) } }, { clock: t.clock, ids: randomIds }));
      assert.equal(written.deliveries, 0);
      const { rows } = await t.storage.query('SELECT 1 FROM notifications WHERE id = $1', [written.notificationId]);
      assert.equal(rows.length, 0);
    });
  });
}

describe('webhook create --types on the command line', () => {
  it('passes --types to the operation; without it, none (the default applies)', async () => {
    const seen: unknown[] = [];
    const port = { createWebhook: async (input: unknown) => (seen.push(input), { webhookId: 'w' }) } as unknown as WebhookPort;
    await runWebhookCommandOn(port, 'webhook create', { entity: 'e', url: 'https://shop.example.com/h', types: 'PAYMENT,RISK' });
    await runWebhookCommandOn(port, 'webhook create', { entity: 'e', url: 'https://shop.example.com/h' });
    assert.deepEqual(seen, [
      { entityId: 'e', url: 'https://shop.example.com/h', types: 'PAYMENT,RISK' },
      { entityId: 'e', url: 'https://shop.example.com/h', types: undefined },
    ]);
  });
});
