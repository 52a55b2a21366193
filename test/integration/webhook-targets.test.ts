import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JobLogger } from '../../src/jobs/job-types.js';
import { startWorkers } from '../../src/jobs/start-workers.js';
import type { CreatedEntity } from '../../src/operations/admin/create-entity.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';
import { RECEIVER_ENV, WebhookReceiver } from '../support/webhook-receiver.js';

const ADMIN = bearer(TEST_ADMIN_TOKEN);

/** A JobLogger that keeps every line, to check what a refusal logs. */
function capturingLogger(): JobLogger & { readonly lines: string[] } {
  const lines: string[] = [];
  const keep = (fields: object, message: string) => void lines.push(JSON.stringify({ ...fields, message }));
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

/**
 * Webhook and notificationUrl targets that reach into the gateway's own network (SSRF): refused
 * at creation when the URL names the address, refused at delivery when a host name resolves to
 * one. Every delivery here goes through the workers as `npm start` builds them (startWorkers with
 * the configuration's own sender). Only 127.0.0.0/8 is ever contacted.
 */
for (const database of testDatabases()) {
  describe(`webhook targets on ${database.name}`, () => {
    let t: TestApp;
    let allowing: TestApp;
    let receiver: WebhookReceiver;
    let merchant: CreatedEntity;

    before(async () => {
      receiver = await WebhookReceiver.start();
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn' } });
      merchant = await t.createMerchant('Shop');
      allowing = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn', ...RECEIVER_ENV } });
    });
    after(async () => {
      for (const app of [t, allowing]) {
        await app.close();
        await app.storage.close();
      }
      await receiver.stop();
    });

    const receiverPort = () => new URL(receiver.url('/')).port;
    const admin = (app: TestApp, method: 'GET' | 'POST', url: string, fields?: Record<string, string>) =>
      app.app.inject({ method, url, headers: fields ? { ...ADMIN, ...FORM_HEADERS } : ADMIN, ...(fields ? { payload: form(fields) } : {}) });

    /** Runs the gateway's workers until no delivery is pending (or the time is up); answers what they logged. */
    async function runWorkers(app: TestApp): Promise<string[]> {
      const logger = capturingLogger();
      const workers = startWorkers({ storage: app.storage, clock: app.clock, logger, settings: { ...app.config.workers, pollIntervalMs: 10, webhookTimeoutMs: 2_000 } });
      try {
        const deadline = Date.now() + 10_000;
        const stillToSend = async () =>
          (await app.storage.query(`SELECT 1 FROM webhook_deliveries d JOIN jobs j ON j.payload->>'deliveryId' = d.id WHERE d.status = 'pending' AND j.run_at <= $1 LIMIT 1`, [app.clock.now()])).rows.length > 0;
        while (await stillToSend()) {
          if (Date.now() > deadline) throw new Error('deliveries still due after 10 s');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        await workers.stop();
      }
      return logger.lines;
    }

    async function deliveriesTo(app: TestApp, url: string) {
      const { rows } = await app.storage.query<{ status: string; attempt_count: number; error: string | null; jobs: bigint }>(
        `SELECT d.status, d.attempt_count,
                (SELECT a.error FROM webhook_attempts a WHERE a.delivery_id = d.id ORDER BY a.attempted_at DESC LIMIT 1) AS error,
                (SELECT count(*) FROM jobs j WHERE j.payload->>'deliveryId' = d.id)::int8 AS jobs
           FROM webhook_deliveries d LEFT JOIN webhooks w ON w.id = d.webhook_id
          WHERE COALESCE(w.url, d.url) = $1`,
        [url],
      );
      return rows.map((r) => ({ status: r.status, attempts: r.attempt_count, error: r.error, jobs: Number(r.jobs) }));
    }

    // One row per URL refused when the webhook is registered: the address is in the URL itself.
    const refusedAtCreation: [url: string, message: RegExp][] = [
      ['http://127.0.0.1:9/hooks', /127\.0\.0\.1 is a loopback address/],
      ['http://10.0.0.7/hooks', /10\.0\.0\.7 is a private address/],
      ['http://192.168.1.20/hooks', /private address/],
      ['http://169.254.169.254/latest/meta-data/', /cloud metadata address/],
      ['http://[::1]:9/hooks', /loopback address/],
      ['http://[fd00:ec2::254]/', /cloud metadata address/],
      ['http://2130706433/hooks', /127\.0\.0\.1 is a loopback address/],
      ['http://0x7f000001/hooks', /127\.0\.0\.1 is a loopback address/],
      ['http://user:secret@shop.example/hooks', /user name or password/],
      ['gopher://shop.example/hooks', /absolute http or https URL/],
    ];
    for (const [url, message] of refusedAtCreation) {
      it(`refuses to register ${url} → 400 200.300.404 naming url`, async () => {
        const response = await admin(t, 'POST', '/admin/webhooks', { entity: merchant.entityId, url });
        // Were it accepted, its test delivery must never run: 10.x and 169.254.x are not this machine's.
        if (response.statusCode === 201) await t.storage.query('DELETE FROM jobs');
        assert.equal(response.statusCode, 400, response.body);
        const { result } = json(response);
        assert.equal(result.code, '200.300.404');
        assert.equal(result.parameterErrors[0].name, 'url');
        assert.match(result.parameterErrors[0].message, message);
      });
    }

    it('refuses a payment whose notificationUrl names a loopback address, before anything is charged', async () => {
      const response = await cardPayment(t, merchant, 'DB', '4.00', { notificationUrl: receiver.url('/legacy-refused') });
      assert.equal(response.statusCode, 400, response.body);
      const { result, id } = json(response);
      assert.equal(result.code, '200.300.404');
      assert.deepEqual(result.parameterErrors.map((e: { name: string }) => e.name), ['notificationUrl']);
      assert.match(result.parameterErrors[0].message, /loopback address/);
      // Every error body carries an id since issue 34 (the request's, not a payment's): nothing was made under it.
      assert.match(id, /^[0-9a-f]{32}$/);
      const { rows } = await t.storage.query('SELECT 1 FROM transactions WHERE entity_id = $1 OR id = $2', [merchant.entityId, id]);
      assert.equal(rows.length, 0);
    });

    it('marks a delivery to a host resolving to loopback failed after one attempt, without contacting it', async () => {
      const url = `http://localhost:${receiverPort()}/hooks/resolved?token=do-not-log`;
      const created = await admin(t, 'POST', '/admin/webhooks', { entity: merchant.entityId, url });
      assert.equal(created.statusCode, 201, 'a host name is judged at delivery');
      // Active as if its test had been acknowledged, so a payment's notification is queued for the workers.
      await t.storage.query(`UPDATE webhooks SET status = 'active', activated_at = now() WHERE id = $1`, [json(created).webhookId]);
      assert.equal((await cardPayment(t, merchant, 'DB', '4.00')).statusCode, 200);
      const lines = await runWorkers(t);
      const [delivery] = await deliveriesTo(t, url);
      assert.deepEqual([delivery!.status, delivery!.attempts, delivery!.jobs], ['failed', 1, 0]);
      assert.match(delivery!.error ?? '', /^refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback address/);
      assert.equal(receiver.on('/hooks/resolved').length, 0);

      const attempts = await admin(t, 'GET', `/admin/webhooks/${json(created).webhookId}/attempts`);
      assert.match(json(attempts).attempts[0].error, /^refused: /, '`webhook attempts` shows why');
      const logged = lines.join('\n');
      assert.match(logged, /refused: localhost resolves to/);
      assert.ok(!logged.includes('do-not-log'), 'the URL\'s query is never logged');
    });

    it('marks a notificationUrl delivery to a loopback host failed after one attempt', async () => {
      const url = `http://localhost:${receiverPort()}/legacy/resolved`;
      const response = await cardPayment(t, merchant, 'DB', '5.00', { notificationUrl: url });
      assert.equal(response.statusCode, 200, response.body);
      await runWorkers(t);
      const [delivery] = await deliveriesTo(t, url);
      assert.deepEqual([delivery!.status, delivery!.attempts, delivery!.jobs], ['failed', 1, 0]);
      assert.equal(receiver.on('/legacy/resolved').length, 0);
    });

    it('an operator test of such a webhook reports the refusal and sends nothing', async () => {
      const url = `http://localhost:${receiverPort()}/hooks/tested`;
      const created = json(await admin(t, 'POST', '/admin/webhooks', { entity: merchant.entityId, url }));
      const tested = await admin(t, 'POST', `/admin/webhooks/${created.webhookId}/test`);
      assert.equal(tested.statusCode, 200, tested.body);
      assert.deepEqual([json(tested).attempt.acknowledged, json(tested).webhook.status], [false, 'pending']);
      assert.match(json(tested).attempt.error, /^refused: /);
      assert.equal(receiver.on('/hooks/tested').length, 0);
    });

    it('with WEBHOOK_ALLOWED_ADDRESSES=127.0.0.1/32 the same receiver is registered and reached', async () => {
      const shop = await allowing.createMerchant('Allowed shop');
      const url = receiver.url('/hooks/allowed');
      const created = await admin(allowing, 'POST', '/admin/webhooks', { entity: shop.entityId, url });
      assert.equal(created.statusCode, 201, created.body);
      receiver.setSecret('/hooks/allowed', json(created).secret);
      assert.equal((await admin(allowing, 'POST', `/admin/webhooks/${json(created).webhookId}/activate`)).statusCode, 200);
      const paid = await cardPayment(allowing, shop, 'DB', '6.00', { notificationUrl: receiver.url('/legacy/allowed') });
      assert.equal(paid.statusCode, 200, paid.body);
      await runWorkers(allowing);
      assert.deepEqual((await deliveriesTo(allowing, url)).map((d) => d.status), ['delivered', 'delivered']);
      assert.equal(receiver.on('/hooks/allowed').length, 2, 'the test, then the payment');
      assert.equal(receiver.on('/legacy/allowed').length, 1);
    });

    it('an entity\'s local receivers (test system) admit its loopback receiver without a restart, and nothing else', async () => {
      const shop = await t.createMerchant('Local developer');
      const receivers = `/admin/entities/${shop.entityId}/webhook-local-receivers`;
      const put = (value: string) => t.app.inject({ method: 'PUT', url: receivers, headers: { ...ADMIN, ...FORM_HEADERS }, payload: form({ receivers: value }) });
      const url = receiver.url('/hooks/local');
      assert.equal((await admin(t, 'POST', '/admin/webhooks', { entity: shop.entityId, url })).statusCode, 400, 'refused before the list names it');
      const set = await put(`localhost:${receiverPort()}`);
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(json(set).localReceivers, [`localhost:${receiverPort()}`]);
      assert.deepEqual(json(await admin(t, 'GET', receivers)).localReceivers, [`localhost:${receiverPort()}`]);
      const otherPort = await admin(t, 'POST', '/admin/webhooks', { entity: shop.entityId, url: `http://127.0.0.1:${Number(receiverPort()) + 1}/x` });
      assert.equal(otherPort.statusCode, 400, 'another port of the machine stays refused');
      const privateAddress = await admin(t, 'POST', '/admin/webhooks', { entity: shop.entityId, url: `http://10.0.0.1:${receiverPort()}/x` });
      assert.match(json(privateAddress).result.parameterErrors[0].message, /private address/);
      assert.equal((await admin(t, 'POST', '/admin/webhooks', { entity: merchant.entityId, url })).statusCode, 400, 'another entity has no such receiver');

      const created = await admin(t, 'POST', '/admin/webhooks', { entity: shop.entityId, url });
      assert.equal(created.statusCode, 201, created.body);
      const webhookId = json(created).webhookId;
      await runWorkers(t);
      assert.equal(receiver.on('/hooks/local').length, 0, 'no test before the receiver holds the secret');
      receiver.setSecret('/hooks/local', json(created).secret);
      const activated = await admin(t, 'POST', `/admin/webhooks/${webhookId}/activate`);
      assert.equal(activated.statusCode, 200, activated.body);
      assert.equal(receiver.on('/hooks/local')[0]?.body.type, 'TEST');

      const byName = await admin(t, 'POST', '/admin/webhooks', { entity: shop.entityId, url: `http://localhost:${receiverPort()}/hooks/by-name` });
      receiver.setSecret('/hooks/by-name', json(byName).secret);
      assert.equal((await admin(t, 'POST', `/admin/webhooks/${json(byName).webhookId}/activate`)).statusCode, 200, 'localhost resolves to loopback only');

      assert.equal((await put('')).statusCode, 200);
      const afterClear = await admin(t, 'POST', `/admin/webhooks/${webhookId}/test`);
      assert.match(json(afterClear).attempt.error, /^refused: /, 'cleared: refused at the next delivery');
      assert.equal(receiver.on('/hooks/local').length, 1);
    });

    it('local receivers: only loopback hosts with a port, of an existing entity', async () => {
      const shop = await t.createMerchant('Typo shop');
      const put = (entityId: string, value: string) =>
        t.app.inject({ method: 'PUT', url: `/admin/entities/${entityId}/webhook-local-receivers`, headers: { ...ADMIN, ...FORM_HEADERS }, payload: form({ receivers: value }) });
      for (const value of ['shop.example:80', '10.0.0.1:8080', 'localhost', '127.0.0.1:0', '169.254.169.254:80']) {
        const answer = await put(shop.entityId, value);
        assert.equal(answer.statusCode, 400, value);
        assert.equal(json(answer).result.parameterErrors[0].name, 'receivers');
      }
      assert.equal((await put('0'.repeat(32), 'localhost:4242')).statusCode, 404);
    });

    it('on the live system only https URLs are registered', async () => {
      const live = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn', GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true' } });
      try {
        const shop = await live.createMerchant('Live shop');
        const post = (url: string) =>
          live.app.inject({ method: 'POST', url: '/admin/webhooks', headers: { ...ADMIN, ...FORM_HEADERS, 'x-forwarded-proto': 'https' }, payload: form({ entity: shop.entityId, url }) });
        const plain = await post('http://shop.example/hooks');
        assert.equal(plain.statusCode, 400, plain.body);
        assert.match(json(plain).result.parameterErrors[0].message, /https URL on the live system/);
        assert.equal((await post('https://shop.example/hooks')).statusCode, 201);
        const local = await live.app.inject({ method: 'PUT', url: `/admin/entities/${shop.entityId}/webhook-local-receivers`, headers: { ...ADMIN, ...FORM_HEADERS, 'x-forwarded-proto': 'https' }, payload: form({ receivers: 'localhost:4242' }) });
        assert.equal(local.statusCode, 400, local.body);
        assert.match(json(local).result.parameterErrors[0].message, /test system only/);
      } finally {
        await live.close();
        await live.storage.close();
      }
    });
  });
}
