/**
 * A job worker process (`npm run worker`, built) whose database connection is cut twice while it
 * delivers webhook notifications to a local receiver and while schedules fall due (a TCP proxy
 * between the worker and PostgreSQL; the gateway that created everything talks to the database
 * directly). Once the link is back the jobs resume by themselves: every notification arrives at
 * least once and its delivery is recorded once, and every schedule makes exactly one payment.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { startCommand, startGatewayProcess } from '../../bench/support/gateway.js';
import { ROOT, scratchDataDir, type NodeProcess } from '../../bench/support/node-process.js';
import { createBenchSchema, urlThrough, type BenchSchema } from '../../bench/support/postgres.js';
import { randomIds, systemClock } from '../../src/domain/ids.js';
import { httpNotificationSender } from '../../src/jobs/http-sender.js';
import { createEntity } from '../../src/operations/admin/create-entity.js';
import { createWebhook } from '../../src/operations/webhooks/create-webhook.js';
import { enqueueNotification } from '../../src/operations/webhooks/enqueue-notification.js';
import { testWebhook } from '../../src/operations/webhooks/test-webhook.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';
import type { Storage } from '../../src/storage/port.js';
import { RECEIVER_ENV, RECEIVER_TARGETS, WebhookReceiver } from '../support/webhook-receiver.js';
import { testDatabaseUrl } from './support/fault-setup.js';
import { TcpProxy } from './support/tcp-proxy.js';

const url = testDatabaseUrl();
const NOTIFICATIONS = 400;
const SCHEDULES = 20;
const CUT_MS = 4_000;
const ENV = { ...RECEIVER_ENV, VAULT_MASTER_KEY: randomBytes(32).toString('hex'), WEBHOOK_TIMEOUT_MS: '2000', WORKER_LEASE_MS: '5000', WORKER_POLL_INTERVAL_MS: '100', DATABASE_FAILOVER_WAIT_MS: '2000', LOG_LEVEL: 'warn' };

async function post(gatewayUrl: string, merchant: { entityId: string; accessToken: string }, path: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await fetch(`${gatewayUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ entityId: merchant.entityId, ...fields }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** `npm run worker` (built), through the proxy: ready once it says its job worker started. */
async function startWorkerProcess(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [startCommand().script.replace(/main\.js$/, 'worker.js')], {
    cwd: ROOT,
    env: { ...process.env, ...ENV, LOG_LEVEL: 'info', DATABASE_URL: databaseUrl, DATA_DIR: scratchDataDir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-65_536);
      if (output.includes('job worker started')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-65_536)));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${output}`)));
  });
  child.stdout!.resume();
  return child;
}

/** Quartz fields that fire once, at `at` (UTC). */
function onceAt(at: Date): string {
  return `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} ${at.getUTCDate()} ${at.getUTCMonth() + 1} ? ${at.getUTCFullYear()}`;
}

async function notifications(storage: Storage, receiver: WebhookReceiver): Promise<string[]> {
  const sender = httpNotificationSender({ timeoutMs: 2_000, maxSocketsPerHost: 1, targets: RECEIVER_TARGETS });
  const deps = { storage, clock: systemClock, ids: randomIds, sender, webhookTargets: RECEIVER_TARGETS };
  const { entityId } = await createEntity(deps, { name: 'Cut shop' });
  const webhook = await createWebhook(deps, { entityId, url: receiver.url('/cut') });
  receiver.setSecret('/cut', webhook.secret);
  assert.equal((await testWebhook(deps, webhook.webhookId)).webhook.status, 'active');
  sender.close();
  const ids: string[] = [];
  await storage.transaction(async (tx) => {
    for (let n = 0; n < NOTIFICATIONS; n += 1) ids.push((await enqueueNotification(tx, { entityId, type: 'PAYMENT', payload: { id: `p${n}`, amount: '1.00' } }, deps)).notificationId);
  });
  return ids;
}

async function schedules(gateway: NodeProcess, schemaUrl: string, fireAt: Date): Promise<void> {
  const storage = createPgStorage({ connectionString: schemaUrl, poolSize: 1 });
  const merchant = await createEntity({ storage, clock: systemClock, ids: randomIds }, { name: 'Schedule shop' }).finally(() => storage.close());
  const card = { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' };
  const registration = await post(gateway.url, merchant, '/v1/registrations', card);
  const initial = { amount: '1.00', currency: 'EUR', paymentType: 'DB', 'card.cvv': '123', 'standingInstruction.type': 'RECURRING', 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT' };
  await post(gateway.url, merchant, `/v1/registrations/${String(registration['id'])}/payments`, initial);
  for (let i = 0; i < SCHEDULES; i += 1) {
    await post(gateway.url, merchant, '/scheduling/v1/schedules', {
      registrationId: String(registration['id']), amount: '3.00', currency: 'EUR', paymentType: 'DB', 'job.expression': onceAt(fireAt), merchantTransactionId: `cut-schedule-${i}`,
    });
  }
}

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(200);
  }
}

describe('background jobs through a database cut', { skip: url ? false : 'TEST_DATABASE_URL not set: needs PostgreSQL' }, () => {
  it('webhook deliveries and schedule runs resume without a duplicate record or a gap', { timeout: 240_000 }, async () => {
    const schema: BenchSchema = await createBenchSchema('fault_jobs', url!);
    const target = new URL(url!);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    const proxyPort = await proxy.listen();
    const receiver = await WebhookReceiver.start();
    let gateway: NodeProcess | undefined;
    let worker: ChildProcess | undefined;
    const storage = createPgStorage({ connectionString: schema.url, poolSize: 2 });
    try {
      // The gateway runs the migrations and takes the API; it runs no jobs: the worker does.
      gateway = await startGatewayProcess({ databaseUrl: schema.url, env: { ...ENV, WORKERS_IN_GATEWAY: 'false' } });
      const ids = await notifications(storage, receiver);
      const fireAt = new Date(Math.ceil((Date.now() + 20_000) / 1000) * 1000);
      await schedules(gateway, schema.url, fireAt);
      assert.ok(Date.now() < fireAt.getTime() - 3_000, 'the schedules were created before their fire time (machine too slow?)');
      worker = await startWorkerProcess(urlThrough(schema.url, '127.0.0.1', proxyPort));
      const events = () => receiver.on('/cut').filter((r) => r.body.type === 'PAYMENT');

      // First cut: while notifications are being delivered.
      await receiver.until(() => events().length >= 50);
      proxy.cut('reset');
      await sleep(CUT_MS);
      proxy.restore();
      const receivedAtFirstCut = new Set(events().map((r) => r.notificationId)).size;
      // Second cut: a partition across the schedules' fire time.
      await sleep(Math.max(0, fireAt.getTime() - 1_000 - Date.now()));
      proxy.cut('blackhole');
      await sleep(CUT_MS);
      proxy.restore();

      const count = async (sql: string) => Number((await schema.admin.query<{ n: string }>(sql)).rows[0]!.n);
      await until(async () => new Set(events().map((r) => r.notificationId)).size >= NOTIFICATIONS, 90_000, 'every notification arrived');
      await until(async () => (await count(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`)) === 0, 60_000, 'every delivery settled');
      await until(async () => (await count(`SELECT count(*) AS n FROM schedules WHERE status = 'ended'`)) === SCHEDULES, 90_000, 'every schedule ended');

      const counts = receiver.acknowledgedCounts('/cut');
      const missing = ids.filter((id) => (counts.get(id) ?? 0) < 1);
      assert.deepEqual(missing, [], 'every notification arrived at least once');
      const deliveries = await schema.admin.query<{ notification_id: string; n: string; delivered: string }>(
        `SELECT notification_id, count(*) AS n, count(*) FILTER (WHERE status = 'delivered') AS delivered FROM webhook_deliveries GROUP BY notification_id`,
      );
      const notOnce = deliveries.rows.filter((r) => Number(r.n) !== 1 || Number(r.delivered) !== 1);
      assert.deepEqual(notOnce, [], 'each delivery recorded once, delivered');
      assert.equal(deliveries.rows.length, NOTIFICATIONS + 1, 'the notifications and the activation test');

      assert.equal(await count(`SELECT count(*) AS n FROM schedules WHERE status = 'ended' AND end_reason = 'completed'`), SCHEDULES, 'every schedule made its run');
      const payments = await schema.admin.query<{ reference: string; n: string }>(
        `SELECT s.run_request->>'merchantTransactionId' AS reference, count(t.id) AS n
           FROM schedules s LEFT JOIN transactions t ON t.merchant_transaction_id = s.run_request->>'merchantTransactionId' AND t.payment_type = 'DB'
          GROUP BY 1`,
      );
      assert.deepEqual(payments.rows.filter((r) => Number(r.n) !== 1), [], 'exactly one payment per schedule');
      assert.equal(await count('SELECT count(DISTINCT transaction_id) AS n FROM schedule_runs'), SCHEDULES);
      const duplicates = ids.filter((id) => (counts.get(id) ?? 0) > 1).length;
      console.log(JSON.stringify({ notifications: NOTIFICATIONS, receivedAtFirstCut, duplicateArrivals: duplicates, schedules: SCHEDULES }));
    } finally {
      worker?.kill('SIGKILL');
      await gateway?.stop('SIGKILL').catch(() => undefined);
      await storage.close();
      await receiver.stop();
      await proxy.close();
      await schema.drop();
    }
  });
});
