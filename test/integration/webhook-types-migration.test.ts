import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomIds } from '../../src/domain/ids.js';
import { createEntity } from '../../src/operations/admin/create-entity.js';
import { migrate } from '../../src/storage/migrate.js';
import type { Storage } from '../../src/storage/port.js';
import { testDatabases } from '../support/databases.js';
import { ManualClock } from '../support/test-app.js';

for (const database of testDatabases()) {
  describe(`migration 037 (webhook notification types) on ${database.name}`, () => {
    let storage: Storage;
    before(async () => { storage = await database.open(); });
    after(() => storage.close());

    const insert = (id: string, entityId: string) => storage.query(
      `INSERT INTO webhooks (id, entity_id, url, secret, status, created_at, updated_at) VALUES ($1, $2, 'https://shop.example.com/h', repeat('a', 64), 'active', now(), now())`, [id, entityId]);
    const typesOf = async (id: string) => (await storage.query<{ notification_types: string[] }>('SELECT notification_types FROM webhooks WHERE id = $1', [id])).rows[0]!.notification_types;

    it('a webhook registered before it keeps every type it was sent; one registered after gets the specification\'s', async () => {
      const { entityId } = await createEntity({ storage, clock: new ManualClock(), ids: randomIds }, { name: 'Hooked shop' });
      // The table as it was before 037.
      await storage.query('ALTER TABLE webhooks DROP COLUMN notification_types');
      await storage.query('DELETE FROM schema_migrations WHERE version = 37');
      await insert('1'.repeat(32), entityId);

      assert.deepEqual(await migrate(storage), [37]);

      assert.deepEqual(await typesOf('1'.repeat(32)), ['PAYMENT', 'REGISTRATION', 'SCHEDULE', 'RISK', 'TEST']);
      await insert('2'.repeat(32), entityId);
      assert.deepEqual(await typesOf('2'.repeat(32)), ['PAYMENT', 'REGISTRATION']);
    });
  });
}
