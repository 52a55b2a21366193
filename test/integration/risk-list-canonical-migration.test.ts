import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { canonicalEmail } from '../../src/domain/risk/canonical-email.js';
import { randomIds } from '../../src/domain/ids.js';
import { createEntity } from '../../src/operations/admin/create-entity.js';
import { migrate } from '../../src/storage/migrate.js';
import type { Storage } from '../../src/storage/port.js';
import { testDatabases } from '../support/databases.js';
import { ManualClock } from '../support/test-app.js';

for (const database of testDatabases()) {
  describe(`migration 031 (e-mail and IP list entries in their canonical form) on ${database.name}`, () => {
    let storage: Storage;
    const clock = new ManualClock();
    before(async () => { storage = await database.open(); });
    after(() => storage.close());

    async function entries(entityId: string) {
      const { rows } = await storage.query<{ list: string; kind: string; value: string; shown: string; reason: string | null }>(
        'SELECT list, kind, value, shown, reason FROM risk_list_entries WHERE entity_id = $1 ORDER BY kind, value, list', [entityId]);
      return rows;
    }

    it('rewrites the entries stored before it, merging those that become one, and leaves the rest as they are', async () => {
      const { entityId } = await createEntity({ storage, clock, ids: randomIds }, { name: 'Listed shop' });
      // Entries as the gateway stored them before 031: e-mail in lower case, IPv6 in its long form.
      const legacy: [string, string, string, string, string][] = [
        ['black', 'email', 'bad@evil.test', 'bad@evil.test', 'first'],
        ['black', 'email', 'bad+promo@evil.test', 'bad+promo@evil.test', 'second'],
        ['black', 'email', 'jane@example.com', 'jane@example.com', 'third'],
        ['white', 'email', 'vip@shop.test.', 'vip@shop.test.', 'vip'],
        ['black', 'ip', '2002:c633:6442:0:0:0:0:1', '2002:c633:6442:0:0:0:0:1', '6to4'],
        ['black', 'ip', '198.51.100.7', '198.51.100.7', 'plain'],
        ['black', 'bin', '420000', '420000', 'bin'],
      ];
      for (const [list, kind, value, shown, reason] of legacy) {
        await storage.query(
          `INSERT INTO risk_list_entries (entity_id, list, kind, value, shown, reason, added_by, added_at) VALUES ($1, $2, $3, $4, $5, $6, 'bob', now())`,
          [entityId, list, kind, value, shown, reason]);
      }
      await storage.query('DELETE FROM schema_migrations WHERE version = 31');

      assert.deepEqual(await migrate(storage), [31]);

      assert.deepEqual(await entries(entityId), [
        { list: 'black', kind: 'bin', value: '420000', shown: '420000', reason: 'bin' },
        ...[
          { list: 'black', kind: 'email', value: canonicalEmail('bad@evil.test'), shown: 'bad@evil.test', reason: 'first' },
          { list: 'black', kind: 'email', value: canonicalEmail('jane@example.com'), shown: 'jane@example.com', reason: 'third' },
          { list: 'white', kind: 'email', value: canonicalEmail('vip@shop.test'), shown: 'vip@shop.test.', reason: 'vip' },
        ].sort((a, b) => (a.value < b.value ? -1 : 1)),
        { list: 'black', kind: 'ip', value: '198.51.100.66', shown: '198.51.100.66', reason: '6to4' },
        { list: 'black', kind: 'ip', value: '198.51.100.7', shown: '198.51.100.7', reason: 'plain' },
      ]);
      // Run again (a second process, a restored schema): nothing left to change.
      await storage.query('DELETE FROM schema_migrations WHERE version = 31');
      const before = await entries(entityId);
      assert.deepEqual(await migrate(storage), [31]);
      assert.deepEqual(await entries(entityId), before);
    });

    it('033: entries written with a comment around the domain or an ideographic full stop take the form payments are looked up in', async () => {
      const { entityId } = await createEntity({ storage, clock, ids: randomIds }, { name: 'Listed shop 033' });
      // As 031's form stored them: the comment kept, the full stop turned into the skeleton's `˳`.
      const legacy: [string, string, string][] = [
        ['bad@evil.test(x)', 'bad@evil.test(x)', 'comment'],
        ['bad@evil\u02F3test', 'bad@evil\u3002test', 'full stop'],
        ['jane@example.com', 'jane@example.com', 'plain'],
      ];
      for (const [i, [value, shown, reason]] of legacy.entries()) {
        await storage.query(
          `INSERT INTO risk_list_entries (entity_id, list, kind, value, shown, reason, added_by, added_at) VALUES ($1, 'black', 'email', $2, $3, $4, 'bob', $5)`,
          [entityId, value, shown, reason, new Date(Date.UTC(2026, 0, 1 + i))]);
      }
      await storage.query('DELETE FROM schema_migrations WHERE version = 33');

      assert.deepEqual(await migrate(storage), [33]);

      const rows = await entries(entityId);
      assert.deepEqual(rows.map((r) => r.value).sort(), [canonicalEmail('bad@evil.test'), canonicalEmail('jane@example.com')].sort());
      assert.equal(rows.find((r) => r.value === canonicalEmail('bad@evil.test'))!.reason, 'comment', 'the two became one entry, the older kept');
    });
  });
}
