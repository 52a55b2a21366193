import pg from 'pg';
import { CommitUncertainError, isConnectionLost, isNotLeader, mayHaveCommitted, statementMayWrite, TransactionLostError } from './errors.js';
import { acquire, checkout, deadlineAfter, isWorthAnotherConnection, pausedBeforeRetry, type Checkout } from './pg-failover.js';
import type { PoolStats, Queryable, QueryOptions, QueryResult, SqlValue, Storage } from './port.js';

const INT8_OID = 20;
// pg hands int8 back as a string by default; money is bigint everywhere in the gateway.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => BigInt(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

function toParams(params: readonly SqlValue[] | undefined): unknown[] {
  return params ? params.map((p) => (typeof p === 'bigint' ? p.toString() : p)) : [];
}

type Values = unknown[];

async function run<Row>(client: pg.PoolClient, sql: string, values: Values, options: QueryOptions | undefined, named: boolean): Promise<QueryResult<Row>> {
  const result = named && options?.prepareAs ? await client.query({ name: options.prepareAs, text: sql, values }) : await client.query(sql, values);
  return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
}

/** The statements of a transaction, on its one connection. */
function inTransaction(client: pg.PoolClient, named: boolean): Queryable {
  return { query: (sql, params, options) => run(client, sql, toParams(params), options, named) };
}

/**
 * A statement on its own (autocommit), on a connection of the pool. One that certainly did not
 * commit (no connection, the server now a replica, a read whose connection dropped) is tried
 * again on another connection until the failover wait runs out, and so is an idempotent write
 * (QueryOptions.idempotent); any other write whose answer was lost after it was sent is not: its
 * outcome is unknown (CommitUncertainError).
 */
function onPool(pool: pg.Pool, failoverWaitMs: number, named: boolean): Queryable {
  return {
    async query<Row>(sql: string, params?: readonly SqlValue[], options?: QueryOptions): Promise<QueryResult<Row>> {
      const values = toParams(params);
      const deadline = deadlineAfter(failoverWaitMs);
      for (let attempt = 0; ; attempt += 1) {
        const held = checkout(await acquire(pool, deadline));
        try {
          const result = await run<Row>(held.client, sql, values, options, named);
          held.release();
          return result;
        } catch (error) {
          held.release(error);
          // A statement that timed out already took its share of the wait: not run twice.
          const timedOut = /read timeout/i.test((error as Error).message);
          if (mayHaveCommitted(error, statementMayWrite(sql)) && (options?.idempotent !== true || timedOut)) throw new CommitUncertainError(error);
          const again = isNotLeader(error) || (isConnectionLost(error) && !timedOut);
          if (!again || !(await pausedBeforeRetry(attempt, deadline))) throw error;
        }
      }
    },
  };
}
export interface PgStorageOptions {
  readonly connectionString: string;
  readonly poolSize: number;
  /** Tests isolate themselves in a schema of their own. */
  readonly searchPath?: string;
  /**
   * Longest wait for one statement's answer, on both sides (statement_timeout on the server,
   * a timer here for answers lost in a network partition). 0: no limit, for migrations, whose
   * index builds on large tables may run for minutes.
   */
  readonly statementTimeoutMs?: number;
  /**
   * How long a statement waits for a reachable leader (DATABASE_FAILOVER_WAIT_MS) before it
   * fails as unavailable; 0, the default: one attempt.
   */
  readonly failoverWaitMs?: number;
  /**
   * Behind a pooler in transaction mode (DATABASE_POOL_MODE=transaction): the server connection
   * changes between transactions, so no named statements (PgBouncer 1.18 does not carry them),
   * no session settings, and no statement_timeout startup parameter (PgBouncer refuses it);
   * the timer on this side still bounds every statement.
   */
  readonly transactionPooling?: boolean;
}

/** Requests of the API never need longer; a hung database must not hang them. */
export const REQUEST_STATEMENT_TIMEOUT_MS = 5_000;

/**
 * Session settings of the general pool. Its named statements (QueryOptions.prepareAs) are parsed
 * once per connection but planned at every run: PostgreSQL would otherwise switch to a generic
 * plan after five runs, made with the sizes the tables had then, which on a new database is a
 * sequential scan of transactions, kept until an ANALYZE invalidates it (never, with autovacuum
 * off; docs/performance.md).
 */
const GENERAL_SESSION = 'SET plan_cache_mode = force_custom_plan';

/**
 * Session settings of the group-write pool, which runs only the few statements of the grouped
 * payment writes: inserts, and updates and locks of rows looked up by id. Planned once per
 * connection (planning them at every run was about a fifth of PostgreSQL's CPU per payment);
 * sequential scans, hash joins and merge joins are ruled out, so that the one plan is a nested
 * loop of index lookups whatever size the tables had when it was made (a test checks the plan).
 */
const GROUP_WRITE_SESSION = 'SET plan_cache_mode = force_generic_plan; SET enable_seqscan = off; SET enable_hashjoin = off; SET enable_mergejoin = off';

/** Connections of the group writes: one per kind of group (pending rows, outcomes, reservations). */
const GROUP_WRITE_CONNECTIONS = 3;

/**
 * How DATABASE_POOL_SIZE is shared: from 6 on, the group writes get three connections (one per
 * kind of group), below that one; the general pool has the rest, at least one, so that even a
 * pool size of 1 opens two connections.
 */
export function poolSizes(poolSize: number): { general: number; groupWrites: number } {
  const groupWrites = poolSize >= 2 * GROUP_WRITE_CONNECTIONS ? GROUP_WRITE_CONNECTIONS : 1;
  return { general: Math.max(1, poolSize - groupWrites), groupWrites };
}

function createPool(options: PgStorageOptions, max: number, session: string): pg.Pool {
  const timeoutMs = options.statementTimeoutMs ?? REQUEST_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max,
    types,
    connectionTimeoutMillis: 5_000,
    // A server that vanished without a word (a machine gone, a partition) is noticed on idle
    // connections too, so they are dropped before a request is handed one.
    keepAlive: true,
    // A statement that hangs (for example while the server restarts) must not hang a request.
    // statement_timeout is the server's: a query whose answer never comes back (a network
    // partition) needs a timer on this side too, else the request and its pooled connection hang.
    ...(timeoutMs > 0 ? { query_timeout: timeoutMs, ...(options.transactionPooling ? {} : { statement_timeout: timeoutMs }) } : {}),
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    // The pool hands a new connection out only once its session is set. A server too old for
    // plan_cache_mode (before PostgreSQL 12) refuses the SET and keeps its defaults.
    ...(options.transactionPooling ? {} : { onConnect: (client: pg.ClientBase) => client.query(session).then(() => undefined, () => undefined) }),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * BEGIN … COMMIT on one connection. Until BEGIN is through nothing of `fn` has run, so a lost
 * connection there is tried again within the failover wait; after it, an error means the
 * transaction did not commit — except at COMMIT, whose lost answer leaves it unknown.
 */
async function transactionOn<T>(pool: pg.Pool, failoverWaitMs: number, named: boolean, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const deadline = deadlineAfter(failoverWaitMs);
  for (let attempt = 0; ; attempt += 1) {
    const held = checkout(await acquire(pool, deadline));
    try {
      await held.client.query('BEGIN');
    } catch (error) {
      held.release(error);
      if (!isWorthAnotherConnection(error) || !(await pausedBeforeRetry(attempt, deadline))) throw error;
      continue;
    }
    return finishTransaction(held, named, fn);
  }
}

async function finishTransaction<T>(held: Checkout, named: boolean, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await fn(inTransaction(held.client, named));
  } catch (error) {
    // A connection that failed or timed out is not asked anything more; destroying it ends the
    // transaction on the server too. A replica's refusal also ends this connection's use.
    const lost = isConnectionLost(error) || isNotLeader(error);
    if (!lost) await held.client.query('ROLLBACK').catch(() => undefined);
    held.release(error);
    throw lost && !(error instanceof CommitUncertainError) ? new TransactionLostError(error) : error;
  }
  try {
    await held.client.query('COMMIT');
  } catch (error) {
    held.release(error);
    throw mayHaveCommitted(error, true) ? new CommitUncertainError(error) : error;
  }
  held.release();
  return result;
}

function storageOn(pool: pg.Pool, failoverWaitMs: number, groupWrites: Storage | undefined, close: () => Promise<void>, named = true): Storage {
  const queryable = onPool(pool, failoverWaitMs, named);
  return {
    kind: 'postgres',
    query: queryable.query,
    ...(groupWrites ? { groupWrites } : {}),
    transaction: (fn) => transactionOn(pool, failoverWaitMs, named, fn),
    close,
  };
}

function statsOf(pool: pg.Pool, name: PoolStats['pool'], max: number): PoolStats {
  return { pool: name, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount, max };
}

/** Two pools on one database: the general one, and the group writes' (Storage.groupWrites). Connections open when first used. */
export function createPgStorage(options: PgStorageOptions): Storage {
  const sizes = poolSizes(options.poolSize);
  const general = createPool(options, sizes.general, GENERAL_SESSION);
  const writes = createPool(options, sizes.groupWrites, GROUP_WRITE_SESSION);
  // The group writes' storage is a facet of this one: closing this closes both pools.
  const waitMs = options.failoverWaitMs ?? 0;
  const named = options.transactionPooling !== true;
  const groupWrites = storageOn(writes, waitMs, undefined, async () => undefined, named);
  return {
    ...storageOn(general, waitMs, groupWrites, async () => { await Promise.all([general.end(), writes.end()]); }, named),
    // Counters pg keeps anyway: reading them costs nothing and asks the database nothing.
    poolStats: () => [statsOf(general, 'main', sizes.general), statsOf(writes, 'group_writes', sizes.groupWrites)],
  };
}
