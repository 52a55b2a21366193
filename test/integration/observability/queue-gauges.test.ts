import assert from 'node:assert/strict';
import { AggregatorRegistry } from 'prom-client';
import { describe, it } from 'node:test';
import { settleDayDepsOf } from '../../../src/jobs/settle-day.js';
import { gatewayJobHandlers, splitPaymentJobs } from '../../../src/jobs/start-workers.js';
import { JOB_KINDS } from '../../../src/jobs/job-kinds.js';
import { silentLogger } from '../../../src/jobs/job-types.js';
import { GatewayMetrics } from '../../../src/observability/metrics.js';
import { sampleStorageGauges } from '../../../src/observability/storage-gauges.js';
import { enqueueJob } from '../../../src/storage/repositories/jobs.js';
import { testDatabases } from '../../support/databases.js';
import { valueOf } from '../../support/metrics.js';
import { cardPayment, type Merchant } from '../../support/payments.js';
import { bearer, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../../support/test-app.js';

const DUE = 'gateway_jobs_due';
const OLDEST = 'gateway_jobs_oldest_due_age_seconds';

for (const database of testDatabases()) {
  describe(`the queue and the pending payments, read from the database at scrape time, on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });

    const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);

    it('knows every job kind the workers run', () => {
      const handlers = gatewayJobHandlers({
        storage: t.storage, clock: t.clock, logger: silentLogger, settings: t.config.workers, sender: { send: async () => ({ httpStatus: 200, error: null, latencyMs: 0 }) },
        resolution: { connectors: t.app.gateway.payments.connectors, settings: t.config.resolution },
        schedules: { payments: t.app.gateway.payments, settings: t.config.schedules },
        settlement: settleDayDepsOf(t.config.settlement, t.app.gateway.payments),
      });
      assert.deepEqual(handlers.map((h) => h.kind).sort(), [...JOB_KINDS].sort());
      // Scheduled runs and status checks (with the sweep that hands them out) have a worker of their own.
      const { payments, others } = splitPaymentJobs(handlers);
      assert.deepEqual(payments.map((h) => h.kind).sort(), ['resolve-pending', 'schedule-run', 'sweep-pending']);
      assert.equal(payments.length + others.length, handlers.length);
    });

    it('jobs due and the oldest one\'s age by job type: every type, 0 when none is due; claimed, parked and future jobs are not due', async () => {
      assert.equal(await valueOf(t, DUE, { job_type: 'deliver-webhook' }), 0);
      for (const kind of JOB_KINDS) assert.equal(typeof (await valueOf(t, DUE, { job_type: kind })), 'number');
      const enqueue = (runAt: Date) => enqueueJob(t.storage, { kind: 'deliver-webhook', payload: { deliveryId: 'x'.repeat(32) }, runAt });
      await enqueue(ago(90_000));
      await enqueue(ago(30_000));
      await enqueue(ago(-60_000));
      const claimed = await enqueue(ago(600_000));
      const parked = await enqueue(ago(900_000));
      await t.storage.query(`UPDATE jobs SET locked_by = 'elsewhere', locked_until = $2 WHERE id = $1`, [claimed, ago(-60_000)]);
      await t.storage.query(`UPDATE jobs SET failed_at = $2, failure_count = 25 WHERE id = $1`, [parked, ago(0)]);

      assert.equal(await valueOf(t, DUE, { job_type: 'deliver-webhook' }), 2);
      assert.equal(await valueOf(t, OLDEST, { job_type: 'deliver-webhook' }), 90);
      assert.equal(await valueOf(t, DUE, { job_type: 'schedule-run' }), 0);
      assert.equal(await valueOf(t, OLDEST, { job_type: 'schedule-run' }), 0);
      // Time passes: the future job falls due, and the oldest has waited longer.
      t.clock.advance(61_000);
      assert.equal(await valueOf(t, DUE, { job_type: 'deliver-webhook' }), 3);
      assert.equal(await valueOf(t, OLDEST, { job_type: 'deliver-webhook' }), 151);

      const scrape = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TEST_ADMIN_TOKEN) });
      assert.equal(scrape.statusCode, 200);
      assert.match(scrape.body, /^gateway_jobs_due\{job_type="deliver-webhook"\} 3$/m);
      assert.match(scrape.body, /^gateway_jobs_oldest_due_age_seconds\{job_type="deliver-webhook"\} 151$/m);
      assert.match(scrape.body, /^gateway_jobs_due\{job_type="schedule-run"\} 0$/m);
      await t.storage.query(`DELETE FROM jobs WHERE kind = 'deliver-webhook'`);
    });

    it('pending payments and the age of the oldest', async () => {
      assert.deepEqual([await valueOf(t, 'gateway_pending_payments'), await valueOf(t, 'gateway_pending_payment_oldest_age_seconds')], [0, 0]);
      // 9.99: the simulator's acquirer does not answer in time; the payment stays pending.
      const first = await cardPayment(t, merchant, 'DB', '9.99');
      assert.match(first.json().result.code, /^000\.200\./, first.body);
      t.clock.advance(45_000);
      await cardPayment(t, merchant, 'DB', '9.99');
      await cardPayment(t, merchant, 'DB', '10.00');
      t.clock.advance(15_000);
      assert.deepEqual([await valueOf(t, 'gateway_pending_payments'), await valueOf(t, 'gateway_pending_payment_oldest_age_seconds')], [2, 60]);
    });

    it('processes of GATEWAY_PROCESSES: the database\'s gauges are taken once in the node\'s aggregate, not added up', async () => {
      await enqueueJob(t.storage, { kind: 'deliver-webhook', payload: {}, runAt: ago(5_000) });
      const processes = [new GatewayMetrics(), new GatewayMetrics()];
      for (const metrics of processes) sampleStorageGauges(metrics, t.storage, t.clock);
      const node = AggregatorRegistry.aggregate(await Promise.all(processes.map((m) => m.registry.getMetricsAsJSON())));
      const text = await node.metrics();
      assert.match(text, /^gateway_jobs_due\{job_type="deliver-webhook"\} 1$/m);
      assert.match(text, /^gateway_jobs_oldest_due_age_seconds\{job_type="deliver-webhook"\} 5$/m);
      assert.match(text, /^gateway_pending_payments 2$/m);
      assert.match(text, /^gateway_pending_payment_oldest_age_seconds 60$/m);
      if (t.storage.kind === 'postgres') {
        // A pool is each process's own: the node has both.
        const one = t.storage.poolStats!().find((p) => p.pool === 'main')!.max;
        assert.match(text, new RegExp(`^gateway_db_pool_max_connections\\{pool="main"\\} ${2 * one}$`, 'm'));
      }
      await t.storage.query(`DELETE FROM jobs WHERE kind = 'deliver-webhook'`);
    });

    it('a database that does not answer leaves its series out of the scrape, which still answers', async () => {
      const metrics = new GatewayMetrics();
      const broken = { ...t.storage, query: async () => { throw new Error('database away'); } };
      sampleStorageGauges(metrics, broken, t.clock);
      const text = await metrics.text();
      assert.doesNotMatch(text, /^gateway_jobs_due\{/m);
      assert.doesNotMatch(text, /^gateway_pending_payments /m);
      assert.match(text, /^# TYPE gateway_jobs_due gauge$/m);
      if (t.storage.kind === 'postgres') assert.match(text, /^gateway_db_pool_max_connections\{pool="main"\} \d+$/m, 'the pools are read without the database');
    });

    it('a database that hangs: the scrape answers at its read limit, without the database\'s series', async () => {
      const metrics = new GatewayMetrics();
      const hung = { ...t.storage, query: () => new Promise<never>(() => undefined) };
      sampleStorageGauges(metrics, hung, t.clock, { readLimitMs: 200 });
      const started = Date.now();
      const text = await metrics.text();
      assert.ok(Date.now() - started < 5_000, `answered after ${Date.now() - started} ms`);
      assert.doesNotMatch(text, /^gateway_jobs_due\{/m);
      assert.doesNotMatch(text, /^gateway_pending_payment_oldest_age_seconds /m);
      if (t.storage.kind === 'postgres') assert.match(text, /^gateway_db_pool_waiting_requests\{pool="main"\} 0$/m);
    });
  });
}

