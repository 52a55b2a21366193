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

/** A client without offline queue (main.ts) answers at once when it is disconnected. */
export function redisCheck(redis: Pick<Redis, 'ping'>): Check {
  return async () => ((await redis.ping()) === 'PONG' ? OK : UNAVAILABLE);
}

/** Asks the pool to sign on when it has no open link yet (pools open on first use). */
export function acquirerLinksCheck(pool: Pick<LinkPool, 'signOn' | 'size'>): Check {
  return async () => linksState(await pool.signOn(), pool.size);
}

export function workerHeartbeatCheck(db: Queryable, maxAgeMs: number, counted: boolean): Check {
  return async () => heartbeatState(await newestHeartbeatAgeMs(db), maxAgeMs, counted);
}
