import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../src/storage/migrate.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';
import { createPgliteStorage } from '../../src/storage/pglite-storage.js';
import type { Storage } from '../../src/storage/port.js';

/**
 * Every integration test runs on both databases: the embedded PGlite always, PostgreSQL when
 * TEST_DATABASE_URL is set (as .ci/run does). Each opened database is fresh: PGlite in memory,
 * PostgreSQL in a schema of its own that is dropped on close.
 */
export interface TestDatabase {
  readonly name: 'pglite' | 'postgres';
  open(): Promise<Storage>;
}

const pgliteDatabase: TestDatabase = {
  name: 'pglite',
  async open() {
    const storage = await createPgliteStorage(undefined);
    await migrate(storage);
    return storage;
  },
};

export function postgresDatabase(url: string): TestDatabase {
  return {
    name: 'postgres',
    async open() {
      const schema = `test_${randomBytes(6).toString('hex')}`;
      await withAdminClient(url, (client) => client.query(`CREATE SCHEMA ${schema}`));
      const storage = createPgStorage({ connectionString: url, poolSize: 20, searchPath: schema });
      await migrate(storage);
      return {
        ...storage,
        async close() {
          await storage.close();
          await withAdminClient(url, (client) => client.query(`DROP SCHEMA ${schema} CASCADE`));
        },
      };
    },
  };
}

/** Runs fn with a plain client of the PostgreSQL at url (schema set-up, checks by SQL). */
export async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function testDatabases(): TestDatabase[] {
  const url = process.env['TEST_DATABASE_URL'];
  return url ? [pgliteDatabase, postgresDatabase(url)] : [pgliteDatabase];
}
