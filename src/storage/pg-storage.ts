import pg from 'pg';
import { isDatabaseUnavailable } from './errors.js';
import type { Queryable, QueryOptions, QueryResult, SqlValue, Storage } from './port.js';

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

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row>(sql: string, params?: readonly SqlValue[], options?: QueryOptions): Promise<QueryResult<Row>> {
      const values = toParams(params);
      const result = options?.prepareAs ? await client.query({ name: options.prepareAs, text: sql, values }) : await client.query(sql, values);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
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
}

/** Requests of the API never need longer; a hung database must not hang them. */
export const REQUEST_STATEMENT_TIMEOUT_MS = 5_000;

export function createPgStorage(options: PgStorageOptions): Storage {
  const timeoutMs = options.statementTimeoutMs ?? REQUEST_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize,
    types,
    connectionTimeoutMillis: 5_000,
    // A statement that hangs (for example while the server restarts) must not hang a request.
    // statement_timeout is the server's: a query whose answer never comes back (a network
    // partition) needs a timer on this side too, else the request and its pooled connection hang.
    ...(timeoutMs > 0 ? { statement_timeout: timeoutMs, query_timeout: timeoutMs } : {}),
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    // Named statements (QueryOptions.prepareAs) are parsed once per connection but planned at
    // every run. PostgreSQL would otherwise switch to a generic plan after five runs, made with
    // the sizes the tables had then: on a new database that is a sequential scan of transactions,
    // kept until an ANALYZE invalidates it, which never comes with autovacuum off
    // (docs/performance.md). The pool hands the connection out only once this has run; a server
    // older than 12, without the setting, keeps its default.
    onConnect: (client) => client.query('SET plan_cache_mode = force_custom_plan').then(() => undefined, () => undefined),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const queryable = wrap(pool);
  return {
    kind: 'postgres',
    query: queryable.query,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // The pool listens for errors only on idle clients: a checked-out client whose connection
      // drops would emit an unhandled 'error' and end the process. Note it, and discard the client.
      let broken: Error | undefined;
      const onError = (error: Error) => { broken = error; };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A connection that failed or timed out is not asked anything more; destroying it ends
        // the transaction on the server too.
        if (isDatabaseUnavailable(error)) broken ??= error as Error;
        if (!broken) await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', onError);
        client.release(broken ?? false);
      }
    },
    async close() {
      await pool.end();
    },
  };
}
