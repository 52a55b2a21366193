import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { buildAdminApp } from '../../../src/app.js';
import { REDIS_AWAY } from '../../../src/observability/health/checks.js';
import { passes } from '../../../src/observability/health/readiness.js';
import { startHeartbeat } from '../../../src/jobs/heartbeat.js';
import { startWorkers } from '../../../src/jobs/start-workers.js';
import { silentLogger } from '../../../src/jobs/job-types.js';
import type { Storage } from '../../../src/storage/port.js';
import { recordHeartbeat } from '../../../src/storage/repositories/worker-heartbeats.js';
import { startAcquirerHost } from '../../../emulators/acquirer-host/server.js';
import { testDatabases } from '../../support/databases.js';
import { json, startTestApp, type TestApp } from '../../support/test-app.js';

const ready = (t: TestApp) => t.app.inject({ method: 'GET', url: '/health/ready' });
const checksOf = async (t: TestApp) => json(await ready(t)).checks as Record<string, string>;
const A_WORKER = { workerId: 'test-host:1:abcd', host: 'test-host', pid: 1 };

/** A TCP port nothing listens on: the one a server just gave back. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await sleep(50);
  }
}

for (const database of testDatabases()) {
  describe(`GET /health/live and /health/ready on ${database.name}`, () => {
    let storage: Storage;
    let t: TestApp;
    before(async () => {
      storage = await database.open();
      // The test system without ACQUIRER_HOST_URL: the app embeds the acquirer host, so it has an ISO 8583 pool.
      t = await startTestApp(storage);
    });
    after(async () => {
      await t.close();
      await storage.close();
    });

    it('live: 200 {"status":"ok"}', async () => {
      const live = await t.app.inject({ method: 'GET', url: '/health/live' });
      assert.equal(live.statusCode, 200);
      assert.deepEqual(json(live), { status: 'ok' });
    });

    it('ready: 200 naming every check once a job worker beats; the pool was signed on by the probe', async () => {
      await recordHeartbeat(storage, A_WORKER);
      const response = await ready(t);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(json(response), { status: 'ok', checks: { database: 'ok', migrations: 'ok', 'job-worker': 'ok', 'iso8583:acquirer-host': 'ok' } });
      assert.equal(response.headers['cache-control'], 'no-store');
      const pool = (t.app.gateway.payments.connectors.registry.connectors.find((c) => c.id === 'acquirer-host') as unknown as { pool: { openConnections: number } }).pool;
      assert.ok(pool.openConnections > 0, 'readiness opened the pool before any payment');
      await storage.query('DELETE FROM worker_heartbeats');
    });

    it('ready: 503 when no job worker has beaten, or only long ago', async () => {
      const none = await ready(t);
      assert.equal(none.statusCode, 503);
      assert.equal(json(none).status, 'not ready');
      assert.equal(json(none).checks['job-worker'], 'no job worker heartbeat');
      assert.equal(json(none).checks.database, 'ok');
      await recordHeartbeat(storage, A_WORKER);
      await storage.query("UPDATE worker_heartbeats SET last_beat_at = now() - interval '1 hour'");
      const stale = await ready(t);
      assert.equal(stale.statusCode, 503);
      assert.match(json(stale).checks['job-worker'], /^last heartbeat 36\d\d s ago \(limit 15 s\)$/);
    });

    it('with a worker fleet of its own (WORKERS_IN_GATEWAY=false) a silent fleet is reported but the gateway stays ready', async () => {
      const apart = await startTestApp(storage, { env: { WORKERS_IN_GATEWAY: 'false' } });
      try {
        const response = await ready(apart);
        assert.equal(response.statusCode, 200, response.body);
        assert.match(json(response).checks['job-worker'], /^ok \(not counted, the workers run apart: last heartbeat 36\d\d s ago \(limit 15 s\)\)$/);
      } finally {
        await apart.close();
      }
    });

    it('a running job worker heartbeat makes it ready, prunes rows of dead workers, and its stop removes its row', async () => {
      // The row of a worker that died an hour ago (from the previous test) is pruned by the next beat.
      const heartbeat = startHeartbeat({ storage, workerId: 'live-worker', logger: silentLogger });
      try {
        await until('ready with a beating worker', async () => (await ready(t)).statusCode === 200);
        await until('the dead worker pruned', async () => (await storage.query('SELECT worker_id FROM worker_heartbeats')).rows.length === 1);
        const { rows } = await storage.query<{ worker_id: string; pid: number }>('SELECT worker_id, pid FROM worker_heartbeats');
        assert.deepEqual(rows.map((row) => [row.worker_id, Number(row.pid)]), [['live-worker', process.pid]]);
      } finally {
        await heartbeat.stop();
      }
      assert.equal((await storage.query('SELECT 1 FROM worker_heartbeats')).rows.length, 0);
      assert.equal((await checksOf(t))['job-worker'], 'no job worker heartbeat');
    });

    it('the job worker of a gateway or of `npm run worker` (startWorkers) beats under its worker id until it stops', async () => {
      const workers = startWorkers({ storage, clock: t.clock, logger: silentLogger, settings: t.config.workers });
      try {
        await until('its heartbeat', async () => (await storage.query('SELECT 1 FROM worker_heartbeats WHERE worker_id = $1', [workers.worker.workerId])).rows.length === 1);
        assert.equal((await checksOf(t))['job-worker'], 'ok');
      } finally {
        await workers.stop();
      }
      assert.equal((await storage.query('SELECT 1 FROM worker_heartbeats')).rows.length, 0, 'a stopped worker leaves no row');
      assert.equal((await checksOf(t))['job-worker'], 'no job worker heartbeat');
    });

    it('ready: 503 when the database lacks a migration this build ships, or has one it does not know', async () => {
      await recordHeartbeat(storage, A_WORKER);
      const [latest] = (await storage.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1')).rows;
      const previous = (await storage.query<{ version: number }>('SELECT max(version) AS version FROM schema_migrations WHERE version < $1', [latest!.version])).rows[0]!.version;
      const three = (version: number) => String(version).padStart(3, '0');
      await storage.query('DELETE FROM schema_migrations WHERE version = $1', [latest!.version]);
      try {
        const behind = await ready(t);
        assert.equal(behind.statusCode, 503);
        assert.equal(json(behind).checks.migrations, `behind: ${three(previous)} applied, ${three(latest!.version)} expected`);
        assert.equal(json(behind).checks.database, 'ok');
      } finally {
        await storage.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [latest!.version, latest!.name]);
      }
      await storage.query("INSERT INTO schema_migrations (version, name) VALUES (999, 'from_a_newer_build')");
      try {
        // A newer build migrated during a rolling upgrade: this one keeps serving, noted.
        const ahead = await ready(t);
        assert.equal(ahead.statusCode, 200);
        assert.equal(json(ahead).checks.migrations, 'ok (ahead: 999 applied, unknown to this build)');
      } finally {
        await storage.query('DELETE FROM schema_migrations WHERE version = 999');
      }
      assert.equal((await ready(t)).statusCode, 200, 'at head again');
    });

    it('Redis configured but unreachable: still ready, redis noted unavailable (and "ok" with a reachable one)', async () => {
      const redis = new Redis(`redis://127.0.0.1:${await closedPort()}`, { connectTimeout: 1_000, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
      redis.on('error', () => undefined);
      const withRedis = await startTestApp(storage, { overrides: { redis } });
      try {
        const response = await ready(withRedis);
        // Throttling fails open and failure counts fall back per process: payments need no Redis,
        // so its state passes (whatever the other checks of this bare test app say).
        assert.equal(json(response).checks.redis, REDIS_AWAY);
        assert.equal(passes(REDIS_AWAY), true);
        assert.equal(json(response).checks.database, 'ok');
        assert.doesNotMatch(response.body, /127\.0\.0\.1|redis:\/\//, 'no address in a public answer');
      } finally {
        await withRedis.close();
        redis.disconnect();
      }
      const url = process.env['TEST_REDIS_URL'];
      if (!url) return;
      const reachable = new Redis(url);
      const withReachable = await startTestApp(storage, { overrides: { redis: reachable } });
      try {
        assert.equal((await checksOf(withReachable)).redis, 'ok');
      } finally {
        await withReachable.close();
        reachable.disconnect();
      }
    });

    it('the acquirer host gone: 503 with no ISO 8583 link signed on after trying', async () => {
      const host = await startAcquirerHost();
      const linked = await startTestApp(storage, { env: { ACQUIRER_HOST_URL: `tcp://127.0.0.1:${host.port}`, ACQUIRER_HOST_POOL_SIZE: '2' } });
      try {
        assert.equal((await checksOf(linked))['iso8583:acquirer-host'], 'ok');
        assert.ok((host.received.get('0800') ?? 0) >= 1, 'the probe signed on (0800)');
        await host.close();
        await until('the links noticed', async () => (await checksOf(linked))['iso8583:acquirer-host'] !== 'ok');
        const response = await ready(linked);
        assert.equal(response.statusCode, 503);
        assert.equal(json(response).checks['iso8583:acquirer-host'], 'no link signed on (0 of 2)');
      } finally {
        await linked.close();
        await host.close();
      }
    });

    it('a hung database: readiness fails within HEALTH_CHECK_TIMEOUT_MS instead of hanging; live does no I/O', async () => {
      const hung: Storage = { ...storage, query: () => new Promise(() => undefined) };
      const stuck = await startTestApp(hung, { env: { HEALTH_CHECK_TIMEOUT_MS: '300', ACQUIRER_HOST_URL: `tcp://127.0.0.1:${await closedPort()}` } });
      try {
        const startedAt = Date.now();
        const response = await ready(stuck);
        assert.equal(response.statusCode, 503);
        assert.deepEqual(json(response).checks, { database: 'timed out after 300 ms', migrations: 'timed out after 300 ms', 'job-worker': 'timed out after 300 ms', 'iso8583:acquirer-host': 'no link signed on (0 of 4)' });
        assert.ok(Date.now() - startedAt < 10_000);
        assert.equal((await stuck.app.inject({ method: 'GET', url: '/health/live' })).statusCode, 200);
      } finally {
        await stuck.close();
      }
    });

    it('with ADMIN_PORT the probes are on the public listener, not the admin one', async () => {
      const split = await startTestApp(storage, { env: { ADMIN_PORT: '0' } });
      const adminApp = await buildAdminApp(split.app);
      try {
        assert.equal((await split.app.inject({ method: 'GET', url: '/health/live' })).statusCode, 200);
        assert.equal((await ready(split)).statusCode, 200);
        assert.equal((await adminApp.inject({ method: 'GET', url: '/health/live' })).statusCode, 404);
        assert.equal((await adminApp.inject({ method: 'GET', url: '/health/ready' })).statusCode, 404);
      } finally {
        await adminApp.close();
        await split.close();
      }
    });

    it('draining: 503 {"status":"draining"} at once while other routes are still served, each answer closing its connection', async () => {
      assert.equal((await ready(t)).statusCode, 200);
      const before = await t.app.inject({ method: 'GET', url: '/v1/resultcodes' });
      assert.notEqual(before.headers.connection, 'close');
      t.app.gateway.readiness.drain.begin();
      const draining = await ready(t);
      assert.equal(draining.statusCode, 503);
      assert.deepEqual(json(draining), { status: 'draining' });
      const served = await t.app.inject({ method: 'GET', url: '/v1/resultcodes' });
      assert.equal(served.statusCode, 200);
      assert.equal(served.headers.connection, 'close');
      assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200, '/health answers as before');
      assert.equal((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode, 200, 'alive while draining');
    });
  });
}

describe('the live system behind a TLS proxy: probes over plain HTTP', () => {
  it('/health/live and /health/ready answer without X-Forwarded-Proto; /health stays as it was (403)', async () => {
    const [database] = testDatabases();
    const storage = await database!.open();
    const t = await startTestApp(storage, { env: { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true' } });
    try {
      await recordHeartbeat(storage, A_WORKER);
      assert.equal((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode, 200);
      const response = await ready(t);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(Object.keys(json(response).checks).sort(), ['database', 'job-worker', 'migrations'], 'no ISO 8583 pool without ACQUIRER_HOST_URL on the live system');
      assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 403);
    } finally {
      await t.close();
      await storage.close();
    }
  });
});
