import type { Redis } from 'ioredis';
import type { LinkPool } from '../../connectors/iso8583/pool.js';
import type { Queryable } from '../../storage/port.js';
import { newestHeartbeatAgeMs } from '../../storage/repositories/worker-heartbeats.js';
import { heartbeatState, linksState, migrationsState, OK, type CheckState } from './readiness.js';

/** One readiness check: its state, from whatever I/O it needs. */
export type Check = () => Promise<CheckState>;

/** A failure's state never carries the error's text: a driver's message may name a host or a user. */
const UNAVAILABLE = 'unavailable';

/**
 * Bounds a check: past `timeoutMs` it has failed ("timed out"), and an error is "unavailable". The
 * work it started goes on; singleFlight keeps the next probes from piling more onto a hung database.
 */
export function bounded(check: Check, timeoutMs: number): Check {
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<CheckState>((resolve) => {
      timer = setTimeout(() => resolve(`timed out after ${timeoutMs} ms`), timeoutMs);
    });
    try {
      return await Promise.race([check().catch(() => UNAVAILABLE), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Probes that arrive while the check still runs share its answer instead of starting another. */
export function singleFlight(check: Check): Check {
  let running: Promise<CheckState> | undefined;
  return () => (running ??= check().finally(() => (running = undefined)));
}

export function databaseCheck(db: Queryable): Check {
  return async () => {
    await db.query('SELECT 1');
    return OK;
  };
}

/** The versions in schema_migrations (migrate.ts records one row per applied file) against the build's. */
export function migrationsCheck(db: Queryable, shipped: () => readonly number[]): Check {
  return async () => {
    const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
    return migrationsState(rows.map((row) => Number(row.version)), shipped());
  };
}

/** Redis away: reported, but passing (docs/operations.md, "When Redis goes away"). */
export const REDIS_AWAY = `${OK} (${UNAVAILABLE}: throttling not enforced, failed sign-ins counted per process)`;

/**
 * Redis holds only throttling counters and failed-authentication counts, which degrade without it
 * (fail open, or per process): its loss is shown but never takes the process out of the load
 * balancer, which for a Redis every gateway shares would take them all out at once, payments and
 * all. A client without offline queue and with a command timeout (main.ts) answers at once when
 * disconnected and within the timeout when Redis hangs.
 */
export function redisCheck(redis: Pick<Redis, 'ping'>): Check {
  return async () => ((await redis.ping().catch(() => undefined)) === 'PONG' ? OK : REDIS_AWAY);
}

/** Asks the pool to sign on when it has no open link yet (pools open on first use). */
export function acquirerLinksCheck(pool: Pick<LinkPool, 'signOn' | 'size'>): Check {
  return async () => linksState(await pool.signOn(), pool.size);
}

export function workerHeartbeatCheck(db: Queryable, maxAgeMs: number, counted: boolean): Check {
  return async () => heartbeatState(await newestHeartbeatAgeMs(db), maxAgeMs, counted);
}
