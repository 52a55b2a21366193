import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { migrate } from '../../src/storage/migrate.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';
import { createPgliteStorage } from '../../src/storage/pglite-storage.js';
import type { Storage } from '../../src/storage/port.js';
import { bearer, json, probeRoutes, startTestApp } from '../support/test-app.js';
import pg from 'pg';

/** Opens the same database twice in a row, as a restart does, and checks a token survives. */
async function survivesRestart(open: () => Promise<Storage>): Promise<void> {
  const first = await startTestApp(await open(), { extraRoutes: probeRoutes });
  const { accessToken, entityId } = await first.createMerchant('Durable shop');
  await first.close();
  await first.storage.close();

  const storage = await open();
  assert.deepEqual(await migrate(storage), [], 'nothing left to migrate after a restart');
  const second = await startTestApp(storage, { extraRoutes: probeRoutes });
  const response = await second.app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers: bearer(accessToken) });
  await second.close();
  await storage.close();
  assert.equal(response.statusCode, 200);
  assert.equal(json(response).entityId, entityId);
}

describe('data survives a restart', () => {
  it('on PGlite in a data folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-pglite-'));
    try {
      await survivesRestart(async () => {
        const storage = await createPgliteStorage(dir);
        await migrate(storage);
        return storage;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const url = process.env['TEST_DATABASE_URL'];
  it('on PostgreSQL', { skip: url ? false : 'TEST_DATABASE_URL not set' }, async () => {
    const schema = `restart_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    try {
      await survivesRestart(async () => {
        const storage = createPgStorage({ connectionString: url!, poolSize: 2, searchPath: schema });
        await migrate(storage);
        return storage;
      });
    } finally {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    }
  });
});
