import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deliverWebhookHandler } from '../../../src/jobs/deliver-webhook.js';
import { httpNotificationSender } from '../../../src/jobs/http-sender.js';
import { silentLogger } from '../../../src/jobs/job-types.js';
import { JobWorker } from '../../../src/jobs/job-worker.js';
import { testDatabases } from '../../support/databases.js';
import { deltas, histogramOf, valuesOf } from '../../support/metrics.js';
import { cardPayment, type Merchant } from '../../support/payments.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { RECEIVER_ENV, RECEIVER_TARGETS, WebhookReceiver } from '../../support/webhook-receiver.js';

const DAY_MS = 86_400_000;
const DELIVERIES = 'gateway_notification_deliveries_total';
const JOB_RUNS = 'gateway_job_runs_total';
const LAG = 'gateway_notification_delivery_lag_seconds';

/** Every delivery outcome and every outcome of the delivery job, read together. */
const COUNTS = {
  delivered: [DELIVERIES, { outcome: 'delivered' }],
  httpError: [DELIVERIES, { outcome: 'http_error' }],
  networkError: [DELIVERIES, { outcome: 'network_error' }],
  refused: [DELIVERIES, { outcome: 'refused_target' }],
  done: [JOB_RUNS, { job_type: 'deliver-webhook', outcome: 'done' }],
  retry: [JOB_RUNS, { job_type: 'deliver-webhook', outcome: 'retry' }],
  givenUp: [JOB_RUNS, { job_type: 'deliver-webhook', outcome: 'given_up' }],
} as const;

const NOTHING = { delivered: 0, httpError: 0, networkError: 0, refused: 0, done: 0, retry: 0, givenUp: 0 };

for (const database of testDatabases()) {
  describe(`webhook deliveries and the delivery job's runs are counted on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    let receiver: WebhookReceiver;
    let worker: JobWorker;
    // DNS that answers a private address for every name: the target rules refuse it at the attempt.
    const sender = httpNotificationSender({ timeoutMs: 2_000, maxSocketsPerHost: 8, targets: RECEIVER_TARGETS, resolve: async () => [{ address: '10.1.2.3', family: 4 }] });

    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn', ...RECEIVER_ENV } });
      merchant = await t.createMerchant();
      receiver = await WebhookReceiver.start();
      const observer = t.app.gateway.observer;
      const handler = deliverWebhookHandler({ storage: t.storage, clock: t.clock, sender, logger: silentLogger, observer });
      worker = new JobWorker({ storage: t.storage, clock: t.clock, handlers: [handler], logger: silentLogger, observer, concurrency: 8, batchSize: 32, pollIntervalMs: 5, leaseMs: 60_000, sweepIntervalMs: 30_000 });
    });
    after(async () => {
      sender.close();
      await receiver.stop();
      await t.close();
      await t.storage.close();
    });

    async function drain(): Promise<void> {
      while ((await worker.runOnce()) > 0);
    }

    async function paidWithNotificationUrl(url: string): Promise<void> {
      const paid = await cardPayment(t, merchant, 'DB', '10.00', { notificationUrl: url });
      assert.equal(paid.statusCode, 200, paid.body);
    }

    it('a 2xx receiver: one delivered, the job done, and the lag from the event to the 2xx in the histogram', async () => {
      const before = await valuesOf(t, COUNTS);
      const lagBefore = await histogramOf(t, LAG);
      await paidWithNotificationUrl(receiver.url('/ok'));
      // The event happened at the payment; the receiver answers 7 s later by the app's clock.
      t.clock.advance(7_000);
      await drain();
      assert.equal(receiver.on('/ok').length, 1);
      assert.deepEqual(deltas(before, await valuesOf(t, COUNTS)), { ...NOTHING, delivered: 1, done: 1 });
      const lag = await histogramOf(t, LAG);
      assert.equal(lag.count - lagBefore.count, 1);
      assert.equal(Number((lag.sum - lagBefore.sum).toFixed(3)), 7);
      assert.equal((lag.buckets['5'] ?? 0) - (lagBefore.buckets['5'] ?? 0), 0, 'not within 5 s');
      assert.equal((lag.buckets['10'] ?? 0) - (lagBefore.buckets['10'] ?? 0), 1, 'within 10 s');
    });

    it('a failing receiver: http_error and a retry at each attempt, then, 30 days on, given up', async () => {
      receiver.answer(500, '/fail');
      const before = await valuesOf(t, COUNTS);
      const lagBefore = await histogramOf(t, LAG);
      await paidWithNotificationUrl(receiver.url('/fail'));
      await drain();
      assert.deepEqual(deltas(before, await valuesOf(t, COUNTS)), { ...NOTHING, httpError: 1, retry: 1 });
      // The next attempt falls after the 30 days of retries: it is the last.
      t.clock.advance(31 * DAY_MS);
      await drain();
      assert.equal(receiver.on('/fail').length, 2);
      assert.deepEqual(deltas(before, await valuesOf(t, COUNTS)), { ...NOTHING, httpError: 2, retry: 1, givenUp: 1 });
      assert.equal((await histogramOf(t, LAG)).count, lagBefore.count, 'no lag without a 2xx');
      const { rows } = await t.storage.query<{ status: string }>(`SELECT status FROM webhook_deliveries WHERE url = $1`, [receiver.url('/fail')]);
      assert.deepEqual(rows.map((r) => r.status), ['failed']);
    });

    it('a receiver that is down: network_error; a target the address rules refuse: refused_target, given up at once', async () => {
      const gone = await WebhookReceiver.start();
      const goneUrl = gone.url('/down');
      await gone.stop();
      const before = await valuesOf(t, COUNTS);
      await paidWithNotificationUrl(goneUrl);
      await paidWithNotificationUrl('http://hooks.shop.example/notify');
      await drain();
      assert.deepEqual(deltas(before, await valuesOf(t, COUNTS)), { ...NOTHING, networkError: 1, refused: 1, retry: 1, givenUp: 1 });
    });
  });
}
