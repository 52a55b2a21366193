/**
 * The PostgreSQL storage through a failover, statement by statement, with a cuttable TCP proxy
 * between the pools and the server (the shared server is never touched): dead connections are
 * replaced, a request waits for a reachable server within DATABASE_FAILOVER_WAIT_MS, a replica's
 * refusal (25006) is tried again on a new connection, and a write whose answer was lost after it
 * was sent is reported uncertain (CommitUncertainError), whatever the database then holds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBenchSchema, urlThrough, type BenchSchema } from '../../bench/support/postgres.js';
import { isCommitUncertain, isDatabaseUnavailable } from '../../src/storage/errors.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';
import type { Storage } from '../../src/storage/port.js';
import { testDatabaseUrl } from './support/fault-setup.js';
import { TcpProxy } from './support/tcp-proxy.js';

const url = testDatabaseUrl();

describe('PostgreSQL storage through a failover', { skip: url ? false : 'TEST_DATABASE_URL not set: needs PostgreSQL' }, () => {
  let schema: BenchSchema;
  let proxy: TcpProxy;
  let proxyPort: number;
  const opened: Storage[] = [];

  before(async () => {
    schema = await createBenchSchema('fault_failover', url!);
    await schema.admin.query('CREATE TABLE ha_rows (id text PRIMARY KEY)');
    const target = new URL(url!);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    proxyPort = await proxy.listen();
  });
  after(async () => {
    await Promise.all(opened.map((s) => s.close().catch(() => undefined)));
    await proxy.close();
    await schema.drop();
  });

  const storage = (failoverWaitMs: number) => {
    const opening = createPgStorage({ connectionString: urlThrough(schema.url, '127.0.0.1', proxyPort), poolSize: 2, failoverWaitMs, statementTimeoutMs: 2_000 });
    opened.push(opening);
    return opening;
  };
  const holds = async (id: string) => (await schema.admin.query('SELECT 1 FROM ha_rows WHERE id = $1', [id])).rowCount === 1;
  /** The server may still be working on a statement whose client was cut: asked again for up to a second. */
  const held = async (id: string) => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      if (await holds(id)) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  };
  const backend = async (db: Storage) => (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

  it('a COMMIT delivered but never acknowledged is uncertain, and the database holds the row', async () => {
    const db = storage(0);
    await backend(db);
    const cut = proxy.cutWhenClientSends('COMMIT', true);
    const error = await db.transaction((tx) => tx.query('INSERT INTO ha_rows (id) VALUES ($1)', ['commit-delivered'])).then(() => undefined, (e: unknown) => e);
    await cut;
    assert.ok(isCommitUncertain(error), `uncertain, not ${String(error)}`);
    assert.equal(await held('commit-delivered'), true);
    assert.equal((await db.query('SELECT 1 AS one')).rowCount, 1, 'the next statement gets a live connection');
  });

  it('a COMMIT lost on its way is uncertain too, and the database does not hold the row', async () => {
    const db = storage(0);
    const cut = proxy.cutWhenClientSends('COMMIT', false);
    const error = await db.transaction((tx) => tx.query('INSERT INTO ha_rows (id) VALUES ($1)', ['commit-lost'])).then(() => undefined, (e: unknown) => e);
    await cut;
    assert.ok(isCommitUncertain(error), `uncertain, not ${String(error)}`);
    assert.equal(await held('commit-lost'), false);
  });

  it('an autocommit INSERT whose answer was lost is uncertain; the group-write pool replaces its connection', async () => {
    const db = storage(0);
    const writes = db.groupWrites!;
    const cut = proxy.cutWhenClientSends('autocommit-delivered', true);
    const error = await writes.query('INSERT INTO ha_rows (id) VALUES ($1)', ['autocommit-delivered']).then(() => undefined, (e: unknown) => e);
    await cut;
    assert.ok(isCommitUncertain(error), `uncertain, not ${String(error)}`);
    assert.equal(await held('autocommit-delivered'), true);
    await writes.query('INSERT INTO ha_rows (id) VALUES ($1)', ['after-the-cut']);
    assert.equal(await held('after-the-cut'), true);
  });

  it('a read whose connection is lost mid-statement is run again on a new connection', async () => {
    const db = storage(3_000);
    const first = await backend(db);
    const cut = proxy.cutWhenClientSends('pg_sleep', false);
    const { rows } = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0) AS slept');
    await cut;
    assert.notEqual(rows[0]!.pid, first, 'answered by another connection');
  });

  it('a connection that reached a read-only server (25006) is thrown away and the write done on a new one', async () => {
    const db = storage(3_000);
    // The general pool has one connection: it now refuses writes, as a demoted leader would.
    await db.query('SET default_transaction_read_only = on');
    const readOnly = await backend(db);
    await db.query('INSERT INTO ha_rows (id) VALUES ($1)', ['after-read-only']);
    assert.equal(await held('after-read-only'), true);
    assert.notEqual(await backend(db), readOnly, 'the read-only connection is gone from the pool');
  });

  it('a transaction that meets a read-only server is answered unavailable (it did not commit), and the next one runs', async () => {
    const db = storage(3_000);
    await db.query('SET default_transaction_read_only = on');
    const error = await db.transaction((tx) => tx.query('INSERT INTO ha_rows (id) VALUES ($1)', ['tx-read-only'])).then(() => undefined, (e: unknown) => e);
    assert.ok(isDatabaseUnavailable(error) && !isCommitUncertain(error), String(error));
    await db.transaction((tx) => tx.query('INSERT INTO ha_rows (id) VALUES ($1)', ['tx-after-read-only']));
    assert.equal(await held('tx-after-read-only'), true);
  });

  it('dead connections are replaced, and while no server answers a statement waits (up to the bound) for one', async () => {
    const db = storage(5_000);
    const before = await backend(db);
    proxy.cut('reset');
    const started = performance.now();
    const waiting = db.query('INSERT INTO ha_rows (id) VALUES ($1)', ['waited']);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    proxy.restore();
    await waiting;
    const waitedMs = performance.now() - started;
    assert.ok(waitedMs >= 1_400 && waitedMs < 5_000, `waited ${Math.round(waitedMs)} ms`);
    assert.equal(await held('waited'), true);
    assert.notEqual(await backend(db), before, 'the connection the reset killed was not handed out again');
  });

  it('gives up at the bound while the server stays away: unavailable (503), not uncertain', async () => {
    const db = storage(1_500);
    await backend(db);
    proxy.cut('reset');
    const started = performance.now();
    try {
      const error = await db.query('INSERT INTO ha_rows (id) VALUES ($1)', ['never']).then(() => undefined, (e: unknown) => e);
      const tookMs = performance.now() - started;
      assert.ok(isDatabaseUnavailable(error) && !isCommitUncertain(error), String(error));
      assert.ok(tookMs >= 1_000 && tookMs < 3_000, `gave up after ${Math.round(tookMs)} ms`);
    } finally {
      proxy.restore();
    }
    assert.equal(await held('never'), false);
  });
});
