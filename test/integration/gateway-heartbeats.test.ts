/**
 * Gateway processes beat in worker_heartbeats with role 'gateway' (migration 061): the console's
 * system status lists them beside the job workers (role, host, pid, version, started, last beat),
 * readiness's job-worker check ignores them, dead ones are pruned like dead workers, and a gateway
 * that stops removes its row.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startGatewayHeartbeat } from '../../src/jobs/heartbeat.js';
import { silentLogger } from '../../src/jobs/job-types.js';
import { PACKAGE_VERSION } from '../../src/observability/package-version.js';
import { testDatabases } from '../support/databases.js';
import { consoleGet, signInAs } from '../support/console.js';
import { json, startTestApp, type TestApp } from '../support/test-app.js';

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (await check()) return;
    await sleep(20);
  }
  assert.fail(`timed out waiting for ${what}`);
}

for (const database of testDatabases()) {
  describe(`gateway heartbeats on ${database.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(await database.open(), { env: { WORKERS_IN_GATEWAY: 'false' } });
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    it('beats as a gateway, listed on the system status with its version; the dead are pruned; a stop removes the row', async () => {
      await t.storage.query("INSERT INTO worker_heartbeats (worker_id, host, pid, role, started_at, last_beat_at) VALUES ('gateway:dead', 'gw9.internal', 99, 'gateway', now() - interval '2 hours', now() - interval '1 hour')");
      const heartbeat = startGatewayHeartbeat(t.storage, silentLogger);
      try {
        await until('its row, the dead one pruned', async () => {
          const { rows } = await t.storage.query<{ worker_id: string }>('SELECT worker_id FROM worker_heartbeats');
          return rows.length === 1 && rows[0]!.worker_id !== 'gateway:dead';
        });
        const { rows } = await t.storage.query<{ role: string; pid: number; version: string }>('SELECT role, pid, version FROM worker_heartbeats');
        assert.deepEqual(rows.map((r) => [r.role, Number(r.pid), r.version]), [['gateway', process.pid, PACKAGE_VERSION]]);
        const checks = json(await t.app.inject({ method: 'GET', url: '/health/ready' })).checks as Record<string, string>;
        assert.match(checks['job-worker']!, /no job worker heartbeat/, "a gateway's beat is not a job worker's");

        const page = await consoleGet(t, await signInAs(t, { role: 'operator-read-only' }), '/console/operator/status');
        assert.equal(page.statusCode, 200);
        assert.match(page.body, new RegExp(`data-label="Role">gateway</td><td data-label="Host" class="wrap">[^<]+</td><td data-label="Process id">${process.pid}</td><td data-label="Version">${PACKAGE_VERSION.replace(/\./g, '\\.')}</td>`));
        assert.match(page.body, /No job worker has a heartbeat/);
      } finally {
        await heartbeat.stop();
      }
      assert.equal((await t.storage.query('SELECT 1 FROM worker_heartbeats')).rows.length, 0);
    });

    it("lists a job worker's row as a job worker, the readiness check counting it", async () => {
      await t.storage.query("INSERT INTO worker_heartbeats (worker_id, host, pid) VALUES ('worker-a', 'gw1.internal', 4211)");
      const page = await consoleGet(t, await signInAs(t, { role: 'operator-read-only' }), '/console/operator/status');
      assert.match(page.body, /data-label="Role">job worker<\/td><td data-label="Host" class="wrap">gw1\.internal<\/td><td data-label="Process id">4211<\/td><td data-label="Version">unknown<\/td>/);
      assert.doesNotMatch(page.body, /No job worker has a heartbeat/);
      await t.storage.query("DELETE FROM worker_heartbeats WHERE worker_id = 'worker-a'");
    });
  });
}
