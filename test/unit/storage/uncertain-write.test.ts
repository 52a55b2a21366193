import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGroupCommit } from '../../../src/storage/group-commit.js';
import { CommitUncertainError, isCommitUncertain } from '../../../src/storage/errors.js';
import type { Queryable, Storage } from '../../../src/storage/port.js';
import { fateOfUncertainItem, fatesOfUncertainGroup, type UncertainItemFate } from '../../../src/storage/uncertain-write.js';

describe('the fate of an item whose commit went unseen', () => {
  const cases: Array<[found: boolean, answerFromWrite: boolean, fate: UncertainItemFate]> = [
    [true, false, 'committed'],
    [false, false, 'write-again'],
    [false, true, 'write-again'],
    [true, true, 'read-answer'],
  ];
  for (const [found, answerFromWrite, fate] of cases) {
    it(`found ${found}, answer from its own statement ${answerFromWrite}: ${fate}`, () => {
      assert.equal(fateOfUncertainItem(found, answerFromWrite), fate);
    });
  }

  it('counts an item the read did not answer about as not found (written again)', () => {
    assert.deepEqual(fatesOfUncertainGroup([true], [false, false]), ['committed', 'write-again']);
  });
});

/** A database holding a set of rows; `cutNext` makes the next write apply (or not) and then lose its answer. */
function fakeLeader() {
  const rows: number[] = [];
  const writes: number[][] = [];
  const cuts: boolean[] = [];
  let leaderAway = false;
  const db: Queryable = { query: async () => ({ rows: [], rowCount: 0 }) };
  const storage: Storage = { kind: 'pglite', query: db.query, transaction: (fn) => fn(db), close: async () => undefined };
  return {
    storage, rows, writes,
    /** The next write (and the one after, each call) applies or not, and loses its answer. */
    cutNext(applied: boolean) { cuts.push(applied); },
    leaveNoLeader() { leaderAway = true; },
    async write(_db: Queryable, items: readonly number[]) {
      writes.push([...items]);
      const applied = cuts.shift();
      if (applied !== false) rows.push(...items);
      if (applied !== undefined) throw new CommitUncertainError(new Error('Connection terminated unexpectedly'));
    },
    async committed(_db: Queryable, items: readonly number[]) {
      if (leaderAway) throw new Error('timeout exceeded when trying to connect (DATABASE_FAILOVER_WAIT_MS)');
      return items.map((i) => rows.includes(i));
    },
  };
}

describe('group commit recovering a write whose commit went unseen', () => {
  const committerOn = (leader: ReturnType<typeof fakeLeader>, answerFromWrite?: (n: number) => boolean) =>
    createGroupCommit<number>({ storage: leader.storage, write: leader.write, transactional: false, maxGroupSize: 100, maxConcurrentGroups: 1, recover: { committed: leader.committed, answerFromWrite } });

  it('answers success for a write the leader holds, and does not write it again', async () => {
    const leader = fakeLeader();
    leader.cutNext(true);
    await committerOn(leader).submit(1);
    assert.deepEqual(leader.rows, [1], 'one row, not two');
    assert.deepEqual(leader.writes, [[1]]);
  });

  it('writes once more a write the leader does not hold, and answers success', async () => {
    const leader = fakeLeader();
    leader.cutNext(false);
    await committerOn(leader).submit(1);
    assert.deepEqual(leader.rows, [1], 'written once, not lost');
    assert.deepEqual(leader.writes, [[1], [1]]);
  });

  it('keeps the uncertain error when no leader answers within the wait, and fails what queued behind as unsent', async () => {
    const leader = fakeLeader();
    leader.cutNext(true);
    leader.leaveNoLeader();
    const commit = committerOn(leader);
    const results = await Promise.allSettled([commit.submit(1), commit.submit(2)]);
    assert.deepEqual(results.map((r) => r.status === 'rejected' && isCommitUncertain(r.reason)), [true, false]);
    assert.equal(results[1]!.status, 'rejected');
  });

  it('keeps uncertain an item that committed but whose answer its own statement read, when it cannot be read again', async () => {
    const leader = fakeLeader();
    leader.cutNext(true);
    await assert.rejects(committerOn(leader, () => true).submit(1), isCommitUncertain);
    assert.deepEqual(leader.writes, [[1]], 'never written again');
  });

  it('answers a committed item whose answer its statement read with that answer read again', async () => {
    const leader = fakeLeader();
    leader.cutNext(true);
    const commit = createGroupCommit<number, string>({
      storage: leader.storage, write: leader.write, transactional: false, maxGroupSize: 100, maxConcurrentGroups: 1,
      recover: { committed: leader.committed, answerFromWrite: () => true, readAnswers: async (_db, items) => items.map((i) => `read ${i}`) },
    });
    assert.equal(await commit.submit(1), 'read 1');
    assert.deepEqual(leader.writes, [[1]], 'never written again');
  });

  it('answers as committed a rewrite refused by its unique key: the lost statement committed after the leader was asked', async () => {
    const leader = fakeLeader();
    leader.cutNext(false);
    const write = leader.write;
    let writes = 0;
    const commit = createGroupCommit<number>({
      storage: leader.storage, transactional: false, maxGroupSize: 100, maxConcurrentGroups: 1, recover: { committed: leader.committed },
      write: async (db, items) => {
        writes += 1;
        if (writes === 1) return write(db, items);
        throw Object.assign(new Error('duplicate key value violates unique constraint "transactions_pkey"'), { code: '23505' });
      },
    });
    await commit.submit(1);
    assert.equal(writes, 2);
  });

  it('recovers only once: a rewrite whose commit goes unseen again is uncertain', async () => {
    const leader = fakeLeader();
    leader.cutNext(false);
    // The rewrite is cut too (and not applied): the request stays uncertain rather than loop.
    leader.cutNext(false);
    await assert.rejects(committerOn(leader).submit(1), isCommitUncertain);
    assert.deepEqual(leader.writes, [[1], [1]]);
    assert.deepEqual(leader.rows, []);
  });
});
