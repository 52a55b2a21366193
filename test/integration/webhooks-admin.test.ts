import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { httpNotificationSender } from '../../src/jobs/http-sender.js';
import type { CreatedEntity } from '../../src/operations/admin/create-entity.js';
import { testDatabases } from '../support/databases.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';
import { RECEIVER_ENV, RECEIVER_TARGETS, WebhookReceiver } from '../support/webhook-receiver.js';

const ADMIN = bearer(TEST_ADMIN_TOKEN);
const UNKNOWN_ID = 'f'.repeat(32);

for (const database of testDatabases()) {
  describe(`webhook administration API on ${database.name}`, () => {
    let t: TestApp;
    let receiver: WebhookReceiver;
    let merchant: CreatedEntity;
    const sender = httpNotificationSender({ timeoutMs: 2_000, maxSocketsPerHost: 4, targets: RECEIVER_TARGETS });
    let pathCounter = 0;

    before(async () => {
      receiver = await WebhookReceiver.start();
      t = await startTestApp(await database.open(), { env: RECEIVER_ENV, overrides: { notificationSender: sender } });
      merchant = await t.createMerchant('Shop');
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      sender.close();
      await receiver.stop();
    });

    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, fields?: Record<string, string>) =>
      t.app.inject({ method, url, headers: fields ? { ...ADMIN, ...FORM_HEADERS } : ADMIN, ...(fields ? { payload: form(fields) } : {}) });

    /** Registers a webhook on a fresh receiver path; the receiver learns its secret. */
    async function register(): Promise<{ webhookId: string; path: string; secret: string }> {
      const path = `/admin-hooks/${++pathCounter}`;
      const response = await call('POST', '/admin/webhooks', { entity: merchant.entityId, url: receiver.url(path) });
      assert.equal(response.statusCode, 201, response.body);
      const body = json(response);
      receiver.setSecret(path, body.secret);
      return { webhookId: body.webhookId, path, secret: body.secret };
    }

    it('creates a pending webhook and shows its 64-hex secret once', async () => {
      const response = await call('POST', '/admin/webhooks', { entity: merchant.entityId, url: 'https://shop.example/hooks?x=1' });
      assert.equal(response.statusCode, 201);
      const body = json(response);
      assert.match(body.webhookId, /^[0-9a-f]{32}$/);
      assert.match(body.secret, /^[0-9a-f]{64}$/);
      assert.equal(body.status, 'pending');
      assert.equal(body.result.code, '000.000.100');
      const listed = await call('GET', `/admin/webhooks?entity=${merchant.entityId}`);
      assert.equal(listed.statusCode, 200);
      assert.ok(json(listed).webhooks.some((w: { webhookId: string }) => w.webhookId === body.webhookId));
      assert.ok(!listed.body.includes(body.secret), 'the list never shows a secret');
      assert.ok(!(await call('GET', `/admin/webhooks/${body.webhookId}`)).body.includes(body.secret));
      assert.ok(!t.logs.text.includes(body.secret), 'nor does the log');
    });

    // One row per refused creation: the fields sent and the answer.
    const refusals: { name: string; fields: () => Record<string, string>; status: number; code: string; parameter: string }[] = [
      { name: 'ftp URL', fields: () => ({ entity: merchant.entityId, url: 'ftp://shop.example/x' }), status: 400, code: '200.300.404', parameter: 'url' },
      { name: 'not a URL', fields: () => ({ entity: merchant.entityId, url: 'shop.example/hooks' }), status: 400, code: '200.300.404', parameter: 'url' },
      { name: 'URL with spaces', fields: () => ({ entity: merchant.entityId, url: 'https://shop.example/a b' }), status: 400, code: '200.300.404', parameter: 'url' },
      { name: 'missing URL', fields: () => ({ entity: merchant.entityId }), status: 400, code: '200.300.404', parameter: 'url' },
      { name: 'missing entity', fields: () => ({ url: 'https://shop.example/h' }), status: 400, code: '200.300.404', parameter: 'entity' },
      { name: 'unknown entity', fields: () => ({ entity: UNKNOWN_ID, url: 'https://shop.example/h' }), status: 404, code: '200.300.406', parameter: 'entity' },
    ];
    for (const row of refusals) {
      it(`refuses a webhook with ${row.name} → ${row.status} ${row.code} naming ${row.parameter}`, async () => {
        const response = await call('POST', '/admin/webhooks', row.fields());
        assert.equal(response.statusCode, row.status, response.body);
        const { result } = json(response);
        assert.equal(result.code, row.code);
        assert.equal(result.parameterErrors[0].name, row.parameter);
      });
    }

    it('needs the admin token', async () => {
      const anonymous = await t.app.inject({ method: 'GET', url: '/admin/webhooks' });
      assert.equal(anonymous.statusCode, 401);
      const merchantToken = await t.app.inject({ method: 'GET', url: '/admin/webhooks', headers: bearer(merchant.accessToken) });
      assert.equal(merchantToken.statusCode, 403);
    });

    it('test sends a notification now and activates a pending webhook when acknowledged', async () => {
      const { webhookId, path } = await register();
      const response = await call('POST', `/admin/webhooks/${webhookId}/test`);
      assert.equal(response.statusCode, 200, response.body);
      const body = json(response);
      assert.equal(body.attempt.acknowledged, true);
      assert.equal(body.attempt.httpStatus, 200);
      assert.equal(body.webhook.status, 'active');
      const [got] = receiver.on(path);
      assert.equal(got?.body.type, 'TEST');
      assert.equal(got?.notificationId, body.attempt.notificationId);
    });

    it('test reports a refusal and leaves the webhook as it was', async () => {
      const { webhookId, path } = await register();
      receiver.answer(503, path);
      const body = json(await call('POST', `/admin/webhooks/${webhookId}/test`));
      assert.deepEqual([body.attempt.acknowledged, body.attempt.httpStatus, body.webhook.status], [false, 503, 'pending']);
    });

    it('deactivate, then activate: re-tests and activates only on acknowledgement', async () => {
      const { webhookId, path } = await register();
      const deactivated = await call('POST', `/admin/webhooks/${webhookId}/deactivate`);
      assert.equal(deactivated.statusCode, 200);
      assert.equal(json(deactivated).status, 'inactive');
      receiver.answer(500, path);
      const refused = await call('POST', `/admin/webhooks/${webhookId}/activate`);
      assert.equal(refused.statusCode, 502);
      assert.equal(json(refused).result.code, '900.100.100');
      assert.match(json(refused).result.parameterErrors[0].message, /HTTP 500/);
      assert.equal(json(await call('GET', `/admin/webhooks/${webhookId}`)).status, 'inactive');
      receiver.answer(204, path);
      const activated = await call('POST', `/admin/webhooks/${webhookId}/activate`);
      assert.equal(activated.statusCode, 200, activated.body);
      assert.equal(json(activated).webhook.status, 'active');
    });

    it('a test of a deactivated webhook does not activate it', async () => {
      const { webhookId } = await register();
      await call('POST', `/admin/webhooks/${webhookId}/deactivate`);
      const body = json(await call('POST', `/admin/webhooks/${webhookId}/test`));
      assert.deepEqual([body.attempt.acknowledged, body.webhook.status], [true, 'inactive']);
    });

    it('lists attempts newest first and resends one delivery with the same notification id', async () => {
      const { webhookId, path } = await register();
      receiver.answer(500, path);
      await call('POST', `/admin/webhooks/${webhookId}/test`);
      receiver.answer(200, path);
      const listed = await call('GET', `/admin/webhooks/${webhookId}/attempts`);
      assert.equal(listed.statusCode, 200);
      const [attempt] = json(listed).attempts;
      assert.deepEqual([attempt.httpStatus, attempt.acknowledged, attempt.trigger, attempt.type, attempt.deliveryStatus], [500, false, 'test', 'TEST', 'failed']);
      assert.equal(typeof attempt.latencyMs, 'number');
      const resent = await call('POST', `/admin/webhooks/deliveries/${attempt.deliveryId}/resend`);
      assert.equal(resent.statusCode, 200, resent.body);
      assert.deepEqual([json(resent).attempt.acknowledged, json(resent).deliveryStatus], [true, 'delivered']);
      const ids = receiver.on(path).map((r) => r.notificationId);
      assert.deepEqual(ids, [attempt.notificationId, attempt.notificationId], 'a resend repeats the notification id');
      const again = json(await call('GET', `/admin/webhooks/${webhookId}/attempts?limit=1`)).attempts;
      assert.deepEqual([again.length, again[0].trigger, again[0].deliveryStatus], [1, 'resend', 'delivered']);
      const badLimit = await call('GET', `/admin/webhooks/${webhookId}/attempts?limit=0`);
      assert.equal(badLimit.statusCode, 400);
      assert.equal(json(badLimit).result.parameterErrors[0].name, 'limit');
    });

    it('delete removes the webhook from every route', async () => {
      const { webhookId } = await register();
      const deleted = await call('DELETE', `/admin/webhooks/${webhookId}`);
      assert.equal(deleted.statusCode, 200);
      assert.deepEqual([json(deleted).webhookId, json(deleted).deleted], [webhookId, true]);
      assert.equal((await call('GET', `/admin/webhooks/${webhookId}`)).statusCode, 404);
      assert.equal((await call('DELETE', `/admin/webhooks/${webhookId}`)).statusCode, 404);
      assert.ok(!(await call('GET', '/admin/webhooks')).body.includes(webhookId));
    });

    // Every route with an id nobody has (and one that is not even an id): 404 naming it.
    const unknown: [method: 'GET' | 'POST' | 'DELETE', path: string, parameter: string][] = [
      ['GET', `/admin/webhooks/${UNKNOWN_ID}`, 'webhookId'],
      ['POST', `/admin/webhooks/${UNKNOWN_ID}/activate`, 'webhookId'],
      ['POST', `/admin/webhooks/${UNKNOWN_ID}/deactivate`, 'webhookId'],
      ['DELETE', `/admin/webhooks/${UNKNOWN_ID}`, 'webhookId'],
      ['POST', `/admin/webhooks/${UNKNOWN_ID}/test`, 'webhookId'],
      ['GET', `/admin/webhooks/${UNKNOWN_ID}/attempts`, 'webhookId'],
      ['POST', '/admin/webhooks/not-an-id/test', 'webhookId'],
      ['POST', `/admin/webhooks/deliveries/${UNKNOWN_ID}/resend`, 'deliveryId'],
      ['POST', '/admin/webhooks/deliveries/xyz/resend', 'deliveryId'],
    ];
    for (const [method, path, parameter] of unknown) {
      it(`${method} ${path.replace(UNKNOWN_ID, '<unknown>')} → 404 200.300.404 naming ${parameter}`, async () => {
        const response = await call(method, path);
        assert.equal(response.statusCode, 404, response.body);
        const { result } = json(response);
        assert.equal(result.code, '200.300.404');
        assert.equal(result.parameterErrors[0].name, parameter);
      });
    }
  });
}
