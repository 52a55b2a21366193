import type { Redis } from 'ioredis';
import { LinkPool } from '../../connectors/iso8583/pool.js';
import { HEARTBEAT_MAX_AGE_MS } from '../../jobs/heartbeat.js';
import { readMigrations } from '../../storage/migrate.js';
import type { Queryable } from '../../storage/port.js';
import { acquirerLinksCheck, bounded, databaseCheck, migrationsCheck, redisCheck, singleFlight, workerHeartbeatCheck, type Check } from './checks.js';
import { decideReadiness, type CheckState, type ReadinessReport } from './readiness.js';

/** Set at the start of a graceful shutdown (main.ts): readiness answers 503 from then on. */
export class DrainState {
  #draining = false;
  get draining(): boolean {
    return this.#draining;
  }
  begin(): void {
    this.#draining = true;
  }
}

export interface ReadinessProbeDeps {
  readonly storage: Queryable;
  /** Checked only when configured (REDIS_URL). */
  readonly redis?: Pick<Redis, 'ping'> | undefined;
  /** The process's connectors, read at each probe: those holding an ISO 8583 pool are checked. */
  readonly connectors: () => readonly object[];
  readonly checkTimeoutMs: number;
  readonly heartbeatMaxAgeMs?: number;
  /** WORKERS_IN_GATEWAY: the gateways run the jobs, so a silent job worker makes them not ready (readiness.ts). */
  readonly jobsInGateway: boolean;
  /** The migration versions this build ships; the files beside migrate.ts when absent. */
  readonly shippedMigrations?: () => readonly number[];
}

export interface ReadinessProbe {
  readonly drain: DrainState;
  /** Runs every check at once, each bounded by checkTimeoutMs, and decides. */
  report(): Promise<ReadinessReport>;
}

function shippedVersions(): () => readonly number[] {
  let versions: readonly number[] | undefined;
  return () => (versions ??= readMigrations().map((migration) => migration.version));
}

function poolOf(connector: object): LinkPool | undefined {
  const pool = (connector as { pool?: unknown }).pool;
  return pool instanceof LinkPool ? pool : undefined;
}

export function createReadinessProbe(deps: ReadinessProbeDeps): ReadinessProbe {
  const drain = new DrainState();
  const guard = (check: Check) => bounded(singleFlight(check), deps.checkTimeoutMs);
  const fixed: Record<string, Check> = {
    database: guard(databaseCheck(deps.storage)),
    migrations: guard(migrationsCheck(deps.storage, deps.shippedMigrations ?? shippedVersions())),
    ...(deps.redis ? { redis: guard(redisCheck(deps.redis)) } : {}),
    'job-worker': guard(workerHeartbeatCheck(deps.storage, deps.heartbeatMaxAgeMs ?? HEARTBEAT_MAX_AGE_MS, deps.jobsInGateway)),
  };
  const linkChecks = new WeakMap<LinkPool, Check>();
  const poolChecks = (): Record<string, Check> => {
    const checks: Record<string, Check> = {};
    for (const connector of deps.connectors()) {
      const pool = poolOf(connector);
      if (!pool) continue;
      if (!linkChecks.has(pool)) linkChecks.set(pool, guard(acquirerLinksCheck(pool)));
      checks[`iso8583:${(connector as { id?: string }).id ?? 'unnamed'}`] = linkChecks.get(pool)!;
    }
    return checks;
  };
  return {
    drain,
    async report() {
      if (drain.draining) return decideReadiness({}, true);
      const entries = Object.entries({ ...fixed, ...poolChecks() });
      const states = await Promise.all(entries.map(async ([name, check]): Promise<[string, CheckState]> => [name, await check()]));
      return decideReadiness(Object.fromEntries(states), drain.draining);
    },
  };
}
