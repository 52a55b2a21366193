import { readdirSync, readFileSync } from 'node:fs';
import { MIGRATION_STEPS } from './migration-steps.js';
import type { Storage } from './port.js';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
// Any constant works: it only has to be the same in every gateway process.
const MIGRATION_LOCK_KEY = 7_346_122_001;

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export function readMigrations(): Migration[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((file) => /^\d{3}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 3)),
      name: file.slice(4, -4),
      sql: readFileSync(new URL(file, MIGRATIONS_DIR), 'utf8'),
    }));
}

/**
 * Applies every migration not yet applied, each in its own transaction. Several gateway
 * processes may start at once against one PostgreSQL: the advisory lock lets one migrate while
 * the others wait and then find nothing left to do.
 */
export async function migrate(storage: Storage): Promise<number[]> {
  const applied: number[] = [];
  for (const migration of readMigrations()) {
    const done = await storage.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await tx.query(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
           version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const existing = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (existing.rows.length > 0) return false;
      await runStatements(tx, migration.sql);
      await MIGRATION_STEPS.get(migration.version)?.(tx);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}

// Migrations are plain SQL whose function bodies (045's trigger) keep their ';' inside a line, so
// splitting on ';' at line ends is safe
// and lets both drivers run them through the same parameterless query call.
async function runStatements(tx: { query: Storage['query'] }, sql: string): Promise<void> {
  const statements = sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
  for (const statement of statements) await tx.query(statement);
}
