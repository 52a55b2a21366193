import { readFileSync } from 'node:fs';
import type { ReadinessProbe } from '../../observability/health/readiness-probe.js';
import type { CheckState } from '../../observability/health/readiness.js';
import { readMigrations } from '../../storage/migrate.js';
import type { Queryable } from '../../storage/port.js';

const PACKAGE_VERSION: string = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** One job worker process, from its heartbeat row (ages by the database's clock, as readiness reads them). */
export interface WorkerProcess {
  readonly workerId: string;
  readonly host: string;
  readonly pid: number;
  readonly startedAt: Date;
  readonly lastBeatAgeSeconds: number;
}

export interface MigrationState {
  readonly version: number;
  readonly name: string;
  /** When it was applied; null: shipped by this build, not applied yet. */
  readonly appliedAt: Date | null;
  /** Applied by a newer build: this build does not know it. */
  readonly unknownToThisBuild: boolean;
}

export interface SystemStatus {
  readonly ready: boolean;
  readonly draining: boolean;
  /** This process's readiness checks (database, migrations, Redis when configured, job worker, acquirer links). */
  readonly checks: Readonly<Record<string, CheckState>>;
  readonly workers: readonly WorkerProcess[];
  readonly versions: { readonly gateway: string; readonly node: string; readonly database: string; readonly storage: string };
  readonly migrations: readonly MigrationState[];
  readonly migrationsPending: number;
}

async function workerProcesses(db: Queryable): Promise<WorkerProcess[]> {
  const { rows } = await db.query<{ worker_id: string; host: string; pid: number; started_at: Date; age_s: number }>(
    'SELECT worker_id, host, pid, started_at, EXTRACT(EPOCH FROM (now() - last_beat_at))::float8 AS age_s FROM worker_heartbeats ORDER BY host, pid',
  );
  return rows.map((r) => ({ workerId: r.worker_id, host: r.host, pid: Number(r.pid), startedAt: new Date(r.started_at), lastBeatAgeSeconds: Math.max(0, Math.round(Number(r.age_s))) }));
}

async function migrationStates(db: Queryable): Promise<MigrationState[]> {
  const { rows } = await db.query<{ version: number; name: string; applied_at: Date }>('SELECT version, name, applied_at FROM schema_migrations ORDER BY version');
  const applied = new Map(rows.map((r) => [Number(r.version), r]));
  const shipped = readMigrations();
  const states: MigrationState[] = shipped.map((m) => ({ version: m.version, name: m.name, appliedAt: applied.has(m.version) ? new Date(applied.get(m.version)!.applied_at) : null, unknownToThisBuild: false }));
  const known = new Set(shipped.map((m) => m.version));
  for (const row of rows) {
    if (!known.has(Number(row.version))) states.push({ version: Number(row.version), name: row.name, appliedAt: new Date(row.applied_at), unknownToThisBuild: true });
  }
  return states.sort((a, b) => a.version - b.version);
}

async function databaseVersion(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ server_version: string }>('SHOW server_version');
  return rows[0]?.server_version ?? 'unknown';
}

/**
 * What the console's system status shows: the readiness checks GET /health/ready runs (the same
 * probe, so the page and the load balancer agree), the job workers' heartbeats, the versions
 * running, and the migrations applied against those this build ships.
 */
export async function loadSystemStatus(deps: { readonly storage: Queryable & { readonly kind: string }; readonly readiness: ReadinessProbe }): Promise<SystemStatus> {
  const report = await deps.readiness.report();
  const [workers, migrations, database] = await Promise.all([workerProcesses(deps.storage), migrationStates(deps.storage), databaseVersion(deps.storage)]);
  return {
    ready: report.ready,
    draining: report.body.status === 'draining',
    checks: report.body.checks ?? {},
    workers,
    versions: { gateway: PACKAGE_VERSION, node: process.versions.node, database, storage: deps.storage.kind },
    migrations,
    migrationsPending: migrations.filter((m) => m.appliedAt === null).length,
  };
}
