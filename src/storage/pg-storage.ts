import pg from 'pg';
import type { Queryable, QueryResult, SqlValue, Storage } from './port.js';

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
    async query<Row>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>> {
      const result = await client.query(sql, toParams(params));
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    },
  };
}

export interface PgStorageOptions {
  readonly connectionString: string;
  readonly poolSize: number;
  /** Tests isolate themselves in a schema of their own. */
  readonly searchPath?: string;
}

export function createPgStorage(options: PgStorageOptions): Storage {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize,
    types,
    connectionTimeoutMillis: 5_000,
    // A statement that hangs (for example while the server restarts) must not hang a request.
    statement_timeout: 30_000,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const queryable = wrap(pool);
  return {
    kind: 'postgres',
    query: queryable.query,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
