import type { Queryable } from '../port.js';

/** The migrations schema_migrations records (migrate.ts writes one row per applied file). */
export async function listAppliedMigrations(db: Queryable): Promise<{ version: number; name: string; appliedAt: Date }[]> {
  const { rows } = await db.query<{ version: number; name: string; applied_at: Date }>('SELECT version, name, applied_at FROM schema_migrations ORDER BY version');
  return rows.map((r) => ({ version: Number(r.version), name: r.name, appliedAt: new Date(r.applied_at) }));
}

/** PostgreSQL's server_version (PGlite answers with the PostgreSQL it compiles). */
export async function databaseServerVersion(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ server_version: string }>('SHOW server_version');
  return rows[0]?.server_version ?? 'unknown';
}
