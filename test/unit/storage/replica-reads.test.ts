import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QueryResult, Storage } from '../../../src/storage/port.js';
import { parseLsn } from '../../../src/storage/replica/replica-lag.js';
import { ReplicaReads } from '../../../src/storage/replica/replica-reads.js';

/** A server that answers the lag queries with a WAL position the test sets, and names itself otherwise. */
function fakeServer(name: string, lsn: () => string | Error): Storage {
  return {
    kind: 'postgres',
    async query<Row>(sql: string): Promise<QueryResult<Row>> {
      const position = lsn();
      if (position instanceof Error) throw position;
      if (/wal_lsn|replay_lsn/.test(sql)) return { rows: [{ lsn: position } as Row], rowCount: 1 };
      return { rows: [{ server: name } as Row], rowCount: 1 };
    },
    transaction: async () => { throw new Error('not used'); },
    close: async () => undefined,
  };
}

function setUp() {
  let now = 1_000;
  const positions = { leader: '0/100', replica: '0/100' as string | Error };
  const reads = new ReplicaReads(fakeServer('leader', () => positions.leader), fakeServer('replica', () => positions.replica), { maxLagMs: 1_000, lagCheckMs: 100 }, () => now);
  const serverOf = async (writer?: string) => ((await reads.tolerant(writer).query<{ server: string }>('SELECT 1')).rows[0]!.server);
  return { reads, positions, serverOf, advance: (ms: number) => { now += ms; } };
}

describe('replica reads', () => {
  it('reads WAL positions as numbers', () => {
    assert.equal(parseLsn('0/100'), 0x100n);
    assert.equal(parseLsn('16/B374D848'), (0x16n << 32n) + 0xB374D848n);
    assert.ok(parseLsn('1/0') > parseLsn('0/FFFFFFFF'));
  });

  it('reads from the leader until a check finds the replica caught up, then from the replica', async () => {
    const { reads, serverOf } = setUp();
    assert.equal(await serverOf(), 'leader');
    assert.equal(await reads.wouldUseReplica(), true);
    assert.equal(await serverOf(), 'replica');
  });

  it('reads from the leader once the replica has been behind longer than the bound', async () => {
    const { reads, positions, serverOf, advance } = setUp();
    await reads.wouldUseReplica();
    positions.leader = '0/200';
    advance(500);
    assert.equal(await reads.wouldUseReplica(), true, 'behind, but within the bound');
    advance(600);
    assert.equal(await reads.wouldUseReplica(), false);
    assert.equal(await serverOf(), 'leader');
    positions.replica = '0/200';
    assert.equal(await reads.wouldUseReplica(), true, 'caught up again');
  });

  it('shows an entity its own write: the leader until the replica holds a moment after it', async () => {
    const { reads, serverOf, advance } = setUp();
    await reads.wouldUseReplica();
    advance(10);
    reads.noteWrite('merchant-a');
    assert.equal(await serverOf('merchant-a'), 'leader');
    assert.equal(await serverOf('merchant-b'), 'replica', 'other entities are not held back');
    advance(200);
    assert.equal(await reads.wouldUseReplica('merchant-a'), true);
  });

  it('answers from the leader when the replica fails, and leaves the replica alone after', async () => {
    const { reads, positions, serverOf } = setUp();
    await reads.wouldUseReplica();
    positions.replica = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5452'), { code: 'ECONNREFUSED' });
    assert.equal(await serverOf(), 'leader');
    assert.equal(await reads.wouldUseReplica(), false);
  });

  it('never reads from a server that is not a standby', async () => {
    const { reads, positions } = setUp();
    positions.replica = null as unknown as string;
    assert.equal(await reads.wouldUseReplica(), false);
  });
});
