import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGroupCommit, type GroupCommitOptions } from '../../../src/storage/group-commit.js';
import type { Queryable, Storage } from '../../../src/storage/port.js';
import { CommitUncertainError, isCommitUncertain, isDatabaseUnavailable, TransactionLostError } from '../../../src/storage/errors.js';

/** A storage whose writes the test releases by hand, recording every group it was asked to write. */
function recordingStorage() {
  const groups: number[][] = [];
  const transactions: number[] = [];
  const gates: Array<() => void> = [];
  const db: Queryable = { query: async () => ({ rows: [], rowCount: 0 }) };
  const storage: Storage = {
    kind: 'pglite',
    query: db.query,
    async transaction(fn) {
      transactions.push(groups.length);
      return fn(db);
    },
    close: async () => undefined,
  };
  return { storage, groups, transactions, gates };
}

type Write = GroupCommitOptions<number>['write'];

function committer(storage: Storage, write: Write, overrides: Partial<GroupCommitOptions<number>> = {}) {
  return createGroupCommit<number>({ storage, write, transactional: false, maxGroupSize: 100, maxConcurrentGroups: 1, ...overrides });
}

/** A write that waits for the test to open its gate, so that later submissions queue behind it. */
function gatedWrite(groups: number[][], gates: Array<() => void>): Write {
  return async (_db, items) => {
    groups.push([...items]);
    await new Promise<void>((resolve) => gates.push(resolve));
  };
}

/** Holds the first group until the test opens its gate (so the rest queue), then writes with `then`. */
function heldFirstThen(groups: number[][], gates: Array<() => void>, then: (items: readonly number[]) => void): Write {
  let first = true;
  return async (_db, items) => {
    groups.push([...items]);
    if (!first) return then(items);
    first = false;
    await new Promise<void>((resolve) => gates.push(resolve));
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

async function openGates(gates: Array<() => void>, until: () => boolean): Promise<void> {
  while (!until()) {
    gates.shift()?.();
    await flush();
  }
}

describe('group commit', () => {
  it('writes a lone item at once, without waiting for company', async () => {
    const { storage, groups } = recordingStorage();
    const commit = committer(storage, async (_db, items) => { groups.push([...items]); });
    await commit.submit(7);
    assert.deepEqual(groups, [[7]]);
  });

  it('writes what arrives during a write as one group, and answers each item after its group', async () => {
    const { storage, groups, gates } = recordingStorage();
    const commit = committer(storage, gatedWrite(groups, gates));
    const answered: number[] = [];
    const all = [1, 2, 3, 4, 5].map((n) => commit.submit(n).then(() => answered.push(n)));
    await flush();
    assert.deepEqual(groups, [[1]], 'the first item went out alone; the others wait for it');
    assert.deepEqual(answered, []);
    gates.shift()!();
    await flush();
    assert.deepEqual(answered, [1]);
    assert.deepEqual(groups, [[1], [2, 3, 4, 5]]);
    gates.shift()!();
    await Promise.all(all);
    assert.deepEqual(answered, [1, 2, 3, 4, 5]);
  });

  it('keeps groups within maxGroupSize and concurrent groups within maxConcurrentGroups', async () => {
    const { storage, groups, gates } = recordingStorage();
    const commit = committer(storage, gatedWrite(groups, gates), { maxGroupSize: 3, maxConcurrentGroups: 2 });
    const all = Array.from({ length: 10 }, (_, n) => commit.submit(n));
    await flush();
    assert.deepEqual(groups, [[0], [1]], 'two groups on their way, the rest queued');
    await openGates(gates, () => groups.flat().length === 10);
    assert.deepEqual(groups, [[0], [1], [2, 3, 4], [5, 6, 7], [8, 9]]);
    await openGates(gates, () => gates.length === 0);
    await Promise.all(all);
  });

  it('runs a group in one transaction when asked to', async () => {
    const { storage, groups, transactions } = recordingStorage();
    const commit = committer(storage, async (_db, items) => { groups.push([...items]); }, { transactional: true });
    await Promise.all([commit.submit(1), commit.submit(2)]);
    assert.equal(transactions.length, groups.length);
  });

  it('writes every item alone after a group failed because of its data, so only the bad item fails', async () => {
    const { storage, groups, gates } = recordingStorage();
    const write = heldFirstThen(groups, gates, (items) => {
      if (items.includes(3)) throw Object.assign(new Error('violates check constraint'), { code: '23514' });
    });
    const commit = committer(storage, write);
    const results = Promise.allSettled([1, 2, 3, 4].map((n) => commit.submit(n)));
    await flush();
    gates.shift()!();
    const settled = await results;
    assert.deepEqual(settled.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    assert.match(String((settled[2] as PromiseRejectedResult).reason), /check constraint/);
    assert.deepEqual(groups, [[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('fails the whole group, and what waits behind it, without retrying item by item, when the database is unavailable', async () => {
    const { storage, groups, gates } = recordingStorage();
    const write = heldFirstThen(groups, gates, () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    const commit = committer(storage, write, { maxGroupSize: 2 });
    const results = Promise.allSettled([1, 2, 3, 4, 5].map((n) => commit.submit(n)));
    await flush();
    gates.shift()!();
    const settled = await results;
    assert.deepEqual(settled.map((r) => r.status), ['fulfilled', 'rejected', 'rejected', 'rejected', 'rejected']);
    assert.deepEqual(groups, [[1], [2, 3]], 'items 4 and 5 were not sent into the outage');
    assert.match(String((settled[4] as PromiseRejectedResult).reason), /ECONNREFUSED/);
  });

  it('answers each item with what the write said of it, so that one refused item fails only its own submitter', async () => {
    const { storage } = recordingStorage();
    const commit = createGroupCommit<number, string>({
      storage,
      transactional: true,
      maxGroupSize: 100,
      maxConcurrentGroups: 1,
      write: async (_db, items) => items.map((n) => (n % 2 === 0 ? { ok: true, value: `even ${n}` } : { ok: false, error: new Error(`odd ${n}`) })),
    });
    const settled = await Promise.allSettled([1, 2, 3, 4].map((n) => commit.submit(n)));
    assert.deepEqual(settled.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason))), ['Error: odd 1', 'even 2', 'Error: odd 3', 'even 4']);
  });

  it('goes on with later groups after a failed one', async () => {
    const { storage, groups } = recordingStorage();
    let fail = true;
    const commit = committer(storage, async (_db, items) => {
      groups.push([...items]);
      if (fail) {
        fail = false;
        throw new Error('deadlock detected');
      }
    });
    await assert.rejects(commit.submit(1), /deadlock/);
    await commit.submit(2);
    assert.deepEqual(groups, [[1], [2]]);
  });

  it('acknowledges no item of a group whose commit it did not see: each is uncertain, what queued behind only unavailable', async () => {
    const { storage, groups, gates } = recordingStorage();
    // The storage lost the connection after the group's COMMIT was sent (pg-storage's answer).
    const write = heldFirstThen(groups, gates, () => {
      throw new CommitUncertainError(Object.assign(new Error('Connection terminated unexpectedly'), {}));
    });
    const commit = committer(storage, write, { maxGroupSize: 2, transactional: true });
    const results = Promise.allSettled([1, 2, 3, 4, 5].map((n) => commit.submit(n)));
    await flush();
    gates.shift()!();
    const settled = await results;
    assert.deepEqual(settled.map((r) => r.status), ['fulfilled', 'rejected', 'rejected', 'rejected', 'rejected']);
    const reasons = settled.slice(1).map((r) => (r as PromiseRejectedResult).reason);
    assert.deepEqual(reasons.map(isCommitUncertain), [true, true, false, false], 'the group sent is uncertain; the items behind it were never sent');
    assert.ok(reasons.slice(2).every(isDatabaseUnavailable), 'the items never sent are plainly unavailable (503, retry)');
    assert.deepEqual(groups, [[1], [2, 3]], 'an uncertain group is never written again item by item');
  });

  it('answers nothing from a group write whose per-item results came back before its COMMIT failed', async () => {
    const { groups } = recordingStorage();
    const db: Queryable = { query: async () => ({ rows: [], rowCount: 0 }) };
    const storage: Storage = {
      kind: 'postgres',
      query: db.query,
      // The items were written, then the COMMIT's answer was lost.
      async transaction(fn) {
        await fn(db);
        throw new CommitUncertainError(new Error('Connection terminated unexpectedly'));
      },
      close: async () => undefined,
    };
    const commit = createGroupCommit<number, string>({
      storage,
      transactional: true,
      maxGroupSize: 100,
      // Each item its own group, all on their way at once: none queues behind another.
      maxConcurrentGroups: 3,
      write: async (_db, items) => {
        groups.push([...items]);
        return items.map((n) => ({ ok: true, value: `written ${n}` }));
      },
    });
    const settled = await Promise.allSettled([1, 2, 3].map((n) => commit.submit(n)));
    assert.deepEqual(settled.map((r) => r.status === 'rejected' && isCommitUncertain(r.reason)), [true, true, true]);
    assert.deepEqual(groups, [[1], [2], [3]]);
  });

  it('writes a group transaction cut before its COMMIT once more (it was rolled back), and answers every item', async () => {
    const { storage, groups } = recordingStorage();
    let cuts = 1;
    const commit = committer(storage, async (_db, items) => {
      groups.push([...items]);
      if (cuts-- > 0) throw new TransactionLostError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }));
    }, { transactional: true });
    await Promise.all([commit.submit(1), commit.submit(2)]);
    assert.deepEqual(groups, [[1], [1], [2]], 'the cut group written again as it was, then the next');
  });

  it('writes a cut group transaction once more only: a second cut fails its items as unavailable, never uncertain', async () => {
    const { storage, groups } = recordingStorage();
    const commit = committer(storage, async (_db, items) => {
      groups.push([...items]);
      throw new TransactionLostError(new Error('Connection terminated unexpectedly'));
    }, { transactional: true });
    const [result] = await Promise.allSettled([commit.submit(1)]);
    assert.equal(groups.length, 2, 'the first write and one rewrite');
    assert.equal(result!.status, 'rejected');
    const reason = (result as PromiseRejectedResult).reason;
    assert.ok(isDatabaseUnavailable(reason) && !isCommitUncertain(reason), 'unavailable (503), not uncertain');
  });
});
