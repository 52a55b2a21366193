/**
 * Webhook delivery throughput on PostgreSQL: enqueue N notifications for one active webhook,
 * then measure how fast workers deliver them to a local receiver that acknowledges at once.
 *
 *   node --import tsx bench/webhooks.ts [--notifications 20000] [--workers 1] [--concurrency 64] [--batch 64]
 *
 * --workers 0 runs one worker inside this process; N > 0 starts N `src/worker.ts` processes.
 * Uses BENCH_DATABASE_URL or TEST_DATABASE_URL (a fresh database is created and dropped).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { randomIds, systemClock } from '../src/domain/ids.js';
import { decryptNotification } from '../src/domain/webhook-crypto.js';
import { silentLogger } from '../src/jobs/job-types.js';
import { startWorkers } from '../src/jobs/start-workers.js';
import { loadConfig } from '../src/config/load-config.js';
import { withAdminClient } from '../test/support/databases.js';
import { createEntity } from '../src/operations/admin/create-entity.js';
import { createWebhook } from '../src/operations/webhooks/create-webhook.js';
import { enqueueNotification } from '../src/operations/webhooks/enqueue-notification.js';
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import type { Storage } from '../src/storage/port.js';

const { values } = parseArgs({
  options: {
    notifications: { type: 'string', default: '20000' },
    workers: { type: 'string', default: '0' },
    concurrency: { type: 'string', default: '64' },
    batch: { type: 'string', default: '64' },
  },
});
const NOTIFICATIONS = Number(values.notifications);
const WORKER_PROCESSES = Number(values.workers);
const ENQUEUE_TRANSACTION_SIZE = 500;

/** A receiver that acknowledges at once and checks one notification in a hundred decrypts. */
async function startReceiver(secret: () => string) {
  const seen = new Set<string>();
  let requests = 0;
  let firstAtMs = 0;
  let undecryptable = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      requests += 1;
      if (requests === 1) firstAtMs = performance.now();
      const id = String(request.headers['x-notification-id']);
      if (requests % 100 === 0) {
        try {
          const iv = String(request.headers['x-initialization-vector']);
          const tag = String(request.headers['x-authentication-tag']);
          JSON.parse(decryptNotification({ bodyHex: Buffer.concat(chunks).toString(), ivHex: iv, tagHex: tag }, secret()));
        } catch {
          undecryptable += 1;
        }
      }
      seen.add(id);
      response.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    stats: () => ({ requests, distinct: seen.size, undecryptable, firstAtMs }),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

// The receiver is on 127.0.0.1, which webhooks may not reach unless the operator allows it.
const RECEIVER_ENV = { WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1/32' };

async function prepare(storage: Storage, receiverUrl: string): Promise<{ entityId: string; secret: string }> {
  const deps = { storage, clock: systemClock, ids: randomIds, webhookTargets: loadConfig(RECEIVER_ENV).workers.webhookTargets };
  const { entityId } = await createEntity(deps, { name: 'Bench shop' });
  const webhook = await createWebhook(deps, { entityId, url: receiverUrl });
  // Skip the creation test: activate directly and drop its job, so only notifications are timed.
  await storage.query(`UPDATE webhooks SET status = 'active' WHERE id = $1`, [webhook.webhookId]);
  await storage.query('DELETE FROM jobs');
  return { entityId, secret: webhook.secret };
}

async function enqueueAll(storage: Storage, entityId: string): Promise<number> {
  const deps = { clock: systemClock, ids: randomIds };
  const started = performance.now();
  for (let done = 0; done < NOTIFICATIONS; done += ENQUEUE_TRANSACTION_SIZE) {
    await storage.transaction(async (tx) => {
      for (let i = done; i < Math.min(done + ENQUEUE_TRANSACTION_SIZE, NOTIFICATIONS); i += 1) {
        const payload = { id: randomBytes(16).toString('hex'), paymentType: 'DB', amount: '92.00', currency: 'EUR', result: { code: '000.100.110', description: 'Request successfully processed' } };
        await enqueueNotification(tx, { entityId, type: 'PAYMENT', payload }, deps);
      }
    });
  }
  return NOTIFICATIONS / ((performance.now() - started) / 1000);
}

function startWorkerProcesses(url: string, count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
      env: { ...process.env, ...RECEIVER_ENV, DATABASE_URL: url, LOG_LEVEL: 'warn', WORKER_CONCURRENCY: values.concurrency, WORKER_BATCH_SIZE: values.batch, WORKER_POLL_INTERVAL_MS: '50' },
      stdio: ['ignore', 'inherit', 'inherit'],
    }),
  );
}

async function main(): Promise<void> {
  const baseUrl = process.env['BENCH_DATABASE_URL'] ?? process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const database = `bench_webhooks_${randomBytes(4).toString('hex')}`;
  await withAdminClient(baseUrl, (c) => c.query(`CREATE DATABASE ${database}`));
  const url = Object.assign(new URL(baseUrl), { pathname: `/${database}` }).toString();
  const storage = createPgStorage({ connectionString: url, poolSize: 10 });
  let secret = '';
  const receiver = await startReceiver(() => secret);
  try {
    await migrate(storage);
    const prepared = await prepare(storage, receiver.url);
    secret = prepared.secret;
    const enqueuePerSecond = await enqueueAll(storage, prepared.entityId);
    const settings = { ...loadConfig({ ...RECEIVER_ENV, WORKER_CONCURRENCY: values.concurrency, WORKER_BATCH_SIZE: values.batch, WORKER_POLL_INTERVAL_MS: '50' }).workers };
    const inProcess = WORKER_PROCESSES === 0 ? startWorkers({ storage, clock: systemClock, logger: silentLogger, settings }) : undefined;
    const children = startWorkerProcesses(url, WORKER_PROCESSES);
    while (receiver.stats().distinct < NOTIFICATIONS) await new Promise((resolve) => setTimeout(resolve, 20));
    // From the first delivery to the last: process start-up (tsx compiles on start) is not delivery.
    const seconds = (performance.now() - receiver.stats().firstAtMs) / 1000;
    await inProcess?.stop();
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    const { rows } = await storage.query<{ delivered: bigint; p50: number; p99: number }>(
      `SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered')::int8 AS delivered,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY latency_ms) AS p99
         FROM webhook_attempts`,
    );
    const stats = receiver.stats();
    process.stdout.write(
      `${JSON.stringify({
        notifications: NOTIFICATIONS,
        workerProcesses: WORKER_PROCESSES === 0 ? 'in-process' : WORKER_PROCESSES,
        concurrency: Number(values.concurrency),
        batchSize: Number(values.batch),
        enqueuePerSecond: Math.round(enqueuePerSecond),
        deliveriesPerSecond: Math.round(NOTIFICATIONS / seconds),
        seconds: Number(seconds.toFixed(2)),
        receiverRequests: stats.requests,
        duplicates: stats.requests - stats.distinct,
        undecryptable: stats.undecryptable,
        recordedDelivered: Number(rows[0]?.delivered ?? 0),
        receiverLatencyMs: { p50: rows[0]?.p50, p99: rows[0]?.p99 },
      }, null, 2)}\n`,
    );
  } finally {
    receiver.close();
    await storage.close();
    await withAdminClient(baseUrl, (c) => c.query(`DROP DATABASE ${database} WITH (FORCE)`));
  }
}

await main();
