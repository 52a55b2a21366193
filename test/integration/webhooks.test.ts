import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomIds } from '../../src/domain/ids.js';
import { deliverWebhookHandler } from '../../src/jobs/deliver-webhook.js';
import { httpNotificationSender } from '../../src/jobs/http-sender.js';
import { silentLogger } from '../../src/jobs/job-types.js';
import { JobWorker } from '../../src/jobs/job-worker.js';
import { createWebhook } from '../../src/operations/webhooks/create-webhook.js';
import { deactivateWebhook } from '../../src/operations/webhooks/deactivate-webhook.js';
import { activateWebhook } from '../../src/operations/webhooks/test-webhook.js';
import { enqueueNotification, type NotificationInput } from '../../src/operations/webhooks/enqueue-notification.js';
import type { NotificationSender } from '../../src/operations/webhooks/ports.js';
import { findWebhook } from '../../src/storage/repositories/webhooks.js';
import type { Storage } from '../../src/storage/port.js';
import { testDatabases } from '../support/databases.js';
import { ManualClock } from '../support/test-app.js';
import { createEntity } from '../../src/operations/admin/create-entity.js';
import { RECEIVER_TARGETS, WebhookReceiver } from '../support/webhook-receiver.js';

const MINUTE_MS = 60_000;

for (const database of testDatabases()) {
  describe(`webhook delivery on ${database.name}`, () => {
    let storage: Storage;
    let receiver: WebhookReceiver;
    let clock: ManualClock;
    let worker: JobWorker;
    const sender = httpNotificationSender({ timeoutMs: 2_000, maxSocketsPerHost: 16, targets: RECEIVER_TARGETS });
    const deps = () => ({ storage, clock, ids: randomIds, webhookTargets: RECEIVER_TARGETS });
    let pathCounter = 0;

    before(async () => {
      storage = await database.open();
      receiver = await WebhookReceiver.start();
      clock = new ManualClock();
      worker = newWorker(sender);
    });
    after(async () => {
      sender.close();
      await receiver.stop();
      await storage.close();
    });

    function newWorker(withSender: NotificationSender): JobWorker {
      const handler = deliverWebhookHandler({ storage, clock, sender: withSender, logger: silentLogger });
      return new JobWorker({ storage, clock, handlers: [handler], logger: silentLogger, concurrency: 32, batchSize: 32, pollIntervalMs: 5, leaseMs: 60_000, sweepIntervalMs: 30_000 });
    }

    async function drain(w = worker): Promise<number> {
      let total = 0;
      for (let ran = await w.runOnce(); ran > 0; ran = await w.runOnce()) total += ran;
      return total;
    }

    async function merchant(): Promise<string> {
      return (await createEntity(deps(), { name: 'Shop' })).entityId;
    }

    /** Registers a webhook whose receiver path knows the secret; returns its id and path. */
    async function webhookFor(entityId: string, options: { activate?: boolean } = {}): Promise<{ id: string; path: string }> {
      const path = `/hooks/${++pathCounter}`;
      const created = await createWebhook(deps(), { entityId, url: receiver.url(path) });
      receiver.setSecret(path, created.secret);
      if (options.activate !== false) {
        // The merchant activates once the receiver holds the secret: the test is sent then.
        assert.equal((await activateWebhook({ ...deps(), sender }, created.webhookId)).webhook.status, 'active');
      }
      return { id: created.webhookId, path };
    }

    async function enqueue(inputs: readonly NotificationInput[]): Promise<string[]> {
      return storage.transaction(async (tx) => {
        const ids: string[] = [];
        for (const input of inputs) ids.push((await enqueueNotification(tx, input, deps())).notificationId);
        return ids;
      });
    }

    const payment = (entityId: string, n: number): NotificationInput => ({
      entityId,
      type: 'PAYMENT',
      payload: { id: `p${n}`, paymentType: 'DB', amount: '92.00', currency: 'EUR', result: { code: '000.100.110' } },
    });
    const registration = (entityId: string, n: number, action: 'CREATED' | 'UPDATED' | 'DELETED'): NotificationInput => ({
      entityId,
      type: 'REGISTRATION',
      action,
      payload: { id: `r${n}`, paymentBrand: 'VISA', card: { bin: '420000', last4Digits: '0000' } },
    });

    it('sends nothing at creation: the test notification waits until the merchant activates, holding the secret', async () => {
      const entityId = await merchant();
      const { id, path } = await webhookFor(entityId, { activate: false });
      assert.equal((await findWebhook(storage, id))?.status, 'pending');
      assert.equal(await drain(), 0, 'no test notification queued before the receiver has its secret');
      assert.deepEqual(receiver.on(path), []);
      await activateWebhook({ ...deps(), sender }, id);
      const [test] = receiver.on(path);
      assert.equal(test?.body.type, 'TEST');
      assert.equal(test?.body.id, test?.notificationId);
      assert.equal((await findWebhook(storage, id))?.status, 'active');
    });

    it('delivers every PAYMENT and REGISTRATION notification of a run, encrypted, exactly once', async () => {
      const entityId = await merchant();
      const { path } = await webhookFor(entityId);
      const inputs = Array.from({ length: 60 }, (_, n) =>
        n % 4 === 0 ? payment(entityId, n) : registration(entityId, n, (['CREATED', 'UPDATED', 'DELETED'] as const)[(n % 4) - 1]!),
      );
      const ids = await enqueue(inputs);
      assert.equal(await drain(), 60);
      const got = receiver.on(path).filter((r) => r.body.type !== 'TEST');
      assert.equal(got.length, 60);
      assert.deepEqual(new Set(got.map((r) => r.notificationId)), new Set(ids));
      for (const r of got) {
        const sent = inputs[ids.indexOf(r.notificationId)]!;
        assert.deepEqual(r.body, { id: r.notificationId, type: sent.type, ...(sent.action ? { action: sent.action } : {}), payload: sent.payload });
        assert.equal(r.headers['content-type'], 'text/plain');
        assert.match(r.rawBody, /^[0-9A-F]+$/);
        assert.match(String(r.headers['x-initialization-vector']), /^[0-9A-F]{24}$/);
        assert.match(String(r.headers['x-authentication-tag']), /^[0-9A-F]{32}$/);
      }
      assert.equal(receiver.rejected.length, 0);
    });

    it('with the receiver down and then back, every notification arrives and none twice once acknowledged', async () => {
      const entityId = await merchant();
      const { path } = await webhookFor(entityId);
      await receiver.stop();
      const ids = await enqueue(Array.from({ length: 12 }, (_, n) => payment(entityId, n)));
      assert.equal(await drain(), 12, 'first attempts fail');
      assert.equal(await drain(), 0, 'nothing is due before the first retry');
      clock.advance(MINUTE_MS - 1);
      assert.equal(await drain(), 0);
      clock.advance(1);
      assert.equal(await drain(), 12, 'second attempts after one minute, still failing');
      await receiver.restart();
      clock.advance(2 * MINUTE_MS - 1);
      assert.equal(await drain(), 0, 'the third attempt waits two minutes');
      clock.advance(1);
      assert.equal(await drain(), 12);
      clock.advance(31 * 86_400_000);
      assert.equal(await drain(), 0, 'acknowledged deliveries are never sent again');
      const counts = receiver.acknowledgedCounts(path);
      for (const id of ids) assert.equal(counts.get(id), 1, `notification ${id} acknowledged once`);
      const { rows } = await storage.query<{ n: bigint }>(
        `SELECT count(*)::int8 AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
          WHERE d.notification_id = ANY($1::bpchar[])`,
        [ids],
      );
      assert.equal(rows[0]?.n, 36n, 'three attempts each: two failed, one acknowledged');
    });

    it('a webhook whose test is not acknowledged stays pending and receives nothing but its tests', async () => {
      const entityId = await merchant();
      const path = `/hooks/${++pathCounter}`;
      receiver.answer(500, path);
      const created = await createWebhook(deps(), { entityId, url: receiver.url(path) });
      receiver.setSecret(path, created.secret);
      await assert.rejects(activateWebhook({ ...deps(), sender }, created.webhookId), (error: Error & { code?: string }) => /900\.100\.100/.test(`${error.code ?? ''} ${error.message}`));
      assert.equal((await findWebhook(storage, created.webhookId))?.status, 'pending');
      await enqueue([payment(entityId, 1), registration(entityId, 2, 'CREATED')]);
      assert.equal(await drain(), 0, 'no delivery was queued for a pending webhook, and no test waits on the schedule');
      clock.advance(MINUTE_MS);
      assert.equal(await drain(), 0);
      assert.deepEqual(receiver.on(path).map((r) => r.body.type), ['TEST'], 'only the test the merchant asked for');
    });

    it('a deactivated webhook receives nothing, not even what was queued before', async () => {
      const entityId = await merchant();
      const { id, path } = await webhookFor(entityId);
      await enqueue([payment(entityId, 1)]);
      await deactivateWebhook(deps(), id);
      await enqueue([payment(entityId, 2)]);
      assert.equal(await drain(), 1, 'the queued delivery runs and finds itself cancelled');
      assert.equal(receiver.on(path).filter((r) => r.body.type !== 'TEST').length, 0);
      const { rows } = await storage.query<{ status: string }>(`SELECT status FROM webhook_deliveries WHERE webhook_id = $1 AND purpose = 'event'`, [id]);
      assert.deepEqual(rows.map((r) => r.status), ['cancelled']);
    });

    it("a channel's notifications reach the channel's and its merchant's webhooks, with one id", async () => {
      const merchantId = await merchant();
      const channelId = (await createEntity(deps(), { name: 'Web', merchantId })).entityId;
      const merchantHook = await webhookFor(merchantId);
      const channelHook = await webhookFor(channelId);
      const otherChannel = (await createEntity(deps(), { name: 'App', merchantId })).entityId;
      const [id] = await enqueue([payment(channelId, 1)]);
      await enqueue([payment(otherChannel, 2)]);
      await drain();
      const events = (path: string) => receiver.on(path).filter((r) => r.body.type !== 'TEST').map((r) => r.notificationId);
      assert.deepEqual(events(channelHook.path), [id]);
      assert.equal(events(merchantHook.path).length, 2, 'the merchant hears from all its channels');
      assert.ok(events(merchantHook.path).includes(id!));
    });

    it('sends the plain JSON to a notificationUrl, and writes nothing when nobody listens', async () => {
      const entityId = await merchant();
      const path = `/plain/${++pathCounter}`;
      const [withUrl] = await enqueue([{ ...payment(entityId, 1), notificationUrl: receiver.url(path) }]);
      const silent = await storage.transaction((tx) => enqueueNotification(tx, payment(entityId, 2), deps()));
      assert.equal(silent.deliveries, 0);
      const { rows } = await storage.query('SELECT 1 FROM notifications WHERE id = $1', [silent.notificationId]);
      assert.equal(rows.length, 0);
      await drain();
      const [got] = receiver.on(path);
      assert.equal(got?.headers['content-type'], 'application/json');
      assert.equal(got?.body.id, withUrl);
      assert.equal(got?.body.payload['id'], 'p1');
    });

    it('an enqueue rolled back with its payment sends nothing', async () => {
      const entityId = await merchant();
      const { path } = await webhookFor(entityId);
      await assert.rejects(storage.transaction(async (tx) => {
        await enqueueNotification(tx, payment(entityId, 1), deps());
        throw new Error('payment failed to store');
      }));
      assert.equal(await drain(), 0);
      assert.equal(receiver.on(path).filter((r) => r.body.type !== 'TEST').length, 0);
    });

    it('retries after 1, 2, 4, 8, 15, 30, 60 minutes and gives up 30 days after the first attempt', async () => {
      const entityId = await merchant();
      await webhookFor(entityId);
      const refusing: NotificationSender = { send: async () => ({ httpStatus: 503, error: null, latencyMs: 1 }) };
      const stubborn = newWorker(refusing);
      const [id] = await enqueue([payment(entityId, 1)]);
      const delivery = async () =>
        (await storage.query<{ id: string; status: string; attempt_count: number; next_attempt_at: Date | null }>(
          'SELECT id, status, attempt_count, next_attempt_at FROM webhook_deliveries WHERE notification_id = $1',
          [id!],
        )).rows[0]!;
      const waitsMinutes: number[] = [];
      for (let attempt = 1; attempt <= 8; attempt += 1) {
        assert.equal(await stubborn.runOnce(), 1);
        const next = (await delivery()).next_attempt_at!;
        waitsMinutes.push((next.getTime() - clock.now().getTime()) / MINUTE_MS);
        clock.advance(next.getTime() - clock.now().getTime());
      }
      assert.deepEqual(waitsMinutes, [1, 2, 4, 8, 15, 30, 60, 60]);
      // Move the first attempt back so that the 30 days end before the next hourly try.
      await storage.query(`UPDATE webhook_deliveries SET first_attempt_at = $2 WHERE id = $1`, [
        (await delivery()).id,
        new Date(clock.now().getTime() - 30 * 86_400_000 + 30 * MINUTE_MS),
      ]);
      assert.equal(await stubborn.runOnce(), 1);
      const last = await delivery();
      assert.deepEqual([last.status, last.attempt_count, last.next_attempt_at], ['failed', 9, null]);
      clock.advance(86_400_000);
      assert.equal(await stubborn.runOnce(), 0, 'a failed delivery leaves the queue');
    });
  });
}
