import { PGlite } from '@electric-sql/pglite';
import type { Queryable, QueryResult, SqlValue, Storage } from './port.js';

const INT8_OID = 20;

function wrap(db: Pick<PGlite, 'query'>): Queryable {
  return {
    // QueryOptions.prepareAs is not used: PGlite runs in this process, parsing costs no round trip.
    async query<Row>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>> {
      const result = await db.query<Row>(sql, params ? [...params] : []);
      // PGlite reports affectedRows 0 for a SELECT; pg reports the rows returned. Align on pg.
      return { rows: result.rows, rowCount: Math.max(result.affectedRows ?? 0, result.rows.length) };
    },
  };
}

/** PGlite runs one statement at a time, so concurrent transactions queue instead of interleaving. */
export function wrapPglite(db: PGlite): Storage {
  const queryable = wrap(db);
  return {
    kind: 'pglite',
    query: queryable.query,
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(wrap(tx)));
    },
    async close() {
      if (!db.closed) await db.close();
    },
  };
}

/** dataDir undefined keeps the database in memory (tests). */
export async function createPgliteStorage(dataDir: string | undefined): Promise<Storage> {
  const db = await PGlite.create(dataDir, { parsers: { [INT8_OID]: (value: string) => BigInt(value) } });
  return wrapPglite(db);
}
