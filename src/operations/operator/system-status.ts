import type { ReadinessProbe } from '../../observability/health/readiness-probe.js';
import type { CheckState } from '../../observability/health/readiness.js';
import { readMigrations } from '../../storage/migrate.js';
import type { Queryable } from '../../storage/port.js';
import { databaseServerVersion, listAppliedMigrations } from '../../storage/repositories/schema-info.js';
import { PACKAGE_VERSION } from '../../observability/package-version.js';
import { listHeartbeats, type HeartbeatRole } from '../../storage/repositories/worker-heartbeats.js';


/** One gateway or job worker process, from its heartbeat row (ages by the database's clock, as readiness reads them). */
export interface WorkerProcess {
  readonly workerId: string;
  readonly role: HeartbeatRole;
  /** The package version it runs; null for a row written before migration 061. */
  readonly version: string | null;
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
  return (await listHeartbeats(db)).map((w) => ({ workerId: w.workerId, role: w.role, version: w.version, host: w.host, pid: w.pid, startedAt: w.startedAt, lastBeatAgeSeconds: Math.round(w.lastBeatAgeMs / 1000) }));
}

/** Every migration this build ships with when it was applied, then any a newer build applied. */
async function migrationStates(db: Queryable): Promise<MigrationState[]> {
  const applied = new Map((await listAppliedMigrations(db)).map((m) => [m.version, m]));
  const shipped = readMigrations();
  const known = new Set(shipped.map((m) => m.version));
  const states: MigrationState[] = shipped.map((m) => ({ version: m.version, name: m.name, appliedAt: applied.get(m.version)?.appliedAt ?? null, unknownToThisBuild: false }));
  for (const m of applied.values()) if (!known.has(m.version)) states.push({ ...m, unknownToThisBuild: true });
  return states.sort((a, b) => a.version - b.version);
}

/**
 * What the console's system status shows: the readiness checks GET /health/ready runs (the same
 * probe, so the page and the load balancer agree), the job workers' heartbeats, the versions
 * running, and the migrations applied against those this build ships.
 */
export async function loadSystemStatus(deps: { readonly storage: Queryable & { readonly kind: string }; readonly readiness: ReadinessProbe }): Promise<SystemStatus> {
  const report = await deps.readiness.report();
  const [workers, migrations, database] = await Promise.all([workerProcesses(deps.storage), migrationStates(deps.storage), databaseServerVersion(deps.storage)]);
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
