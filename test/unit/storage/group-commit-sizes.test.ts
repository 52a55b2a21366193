import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createGroupCommit } from '../../../src/storage/group-commit.js';
import type { Queryable, Storage } from '../../../src/storage/port.js';

it('reports the size of every group it writes, the retries of a failed group alone included', async () => {
  const db: Queryable = { query: async () => ({ rows: [], rowCount: 0 }) };
  const storage: Storage = { kind: 'pglite', query: db.query, transaction: (fn) => fn(db), close: async () => undefined };
  const sizes: number[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let first = true;
  const commit = createGroupCommit<number>({
    storage, transactional: false, maxGroupSize: 100, maxConcurrentGroups: 1, onGroup: (size) => sizes.push(size),
    async write(_db, items) {
      if (first) {
        first = false;
        await gate;
        return;
      }
      // A constraint broken by item 13: the group is written again item by item.
      if (items.includes(13)) throw Object.assign(new Error('check violation'), { code: '23514' });
    },
  });
  const lone = commit.submit(1);
  const queued = [2, 3, 13].map((n) => commit.submit(n).then(() => 'ok', () => 'refused'));
  release();
  await lone;
  assert.deepEqual(await Promise.all(queued), ['ok', 'ok', 'refused']);
  assert.deepEqual(sizes, [1, 3, 1, 1, 1]);
});
