/**
 * How the PostgreSQL pools ride out a failover: a connection whose socket died is thrown away,
 * never handed out again; while no server can be reached (the leader died, the new one is not
 * yet promoted) a request waits for one, up to a bound (DATABASE_FAILOVER_WAIT_MS), instead of
 * failing at once; and a statement that certainly did not commit is tried again on a new
 * connection within the same bound. A write whose answer was lost is never tried again: it
 * becomes CommitUncertainError.
 */
import type pg from 'pg';
import { isConnectionLost, isDatabaseUnavailable, isNotLeader } from './errors.js';

/**
 * First pause between attempts to reach a server; it doubles up to the last, which bounds how
 * long after the new leader is reachable a waiting request finds it (half a second).
 */
const FIRST_PAUSE_MS = 100;
const LAST_PAUSE_MS = 500;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When a request stops waiting for a server: now + the wait (0: one attempt, as before failovers were thought of). */
export function deadlineAfter(waitMs: number): number {
  return performance.now() + waitMs;
}

/** The shortest time worth another attempt to connect (a local connection takes a few ms). */
const LAST_ATTEMPT_MS = 50;

/**
 * Waits before the next attempt while the deadline leaves room for one (the last pause is cut
 * short so an attempt still fits); false when none does.
 */
export async function pausedBeforeRetry(attempt: number, deadline: number): Promise<boolean> {
  const room = deadline - performance.now() - LAST_ATTEMPT_MS;
  if (room <= 0) return false;
  await pause(Math.min(room, LAST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** attempt));
  return true;
}

/** A connection error, or a server that is now a replica: worth another connection. */
export function isWorthAnotherConnection(error: unknown): boolean {
  return isNotLeader(error) || isDatabaseUnavailable(error);
}

/**
 * One pool.connect() that gives up at the deadline (pg's own connect timeout still applies).
 * A connection that arrives after the caller gave up goes back to the pool.
 */
function connectBefore(pool: pg.Pool, deadline: number): Promise<pg.PoolClient> {
  const remaining = deadline - performance.now();
  const connecting = pool.connect();
  if (remaining <= 0) return connecting;
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new Error('timeout exceeded when trying to connect (DATABASE_FAILOVER_WAIT_MS)'));
    }, remaining);
    connecting.then(
      (client) => {
        clearTimeout(timer);
        if (late) client.release();
        else resolve(client);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!late) reject(error);
      },
    );
  });
}

/** A pooled connection, trying again while no server answers, until the deadline. */
export async function acquire(pool: pg.Pool, deadline: number): Promise<pg.PoolClient> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await connectBefore(pool, deadline);
    } catch (error) {
      if (!isDatabaseUnavailable(error) || !(await pausedBeforeRetry(attempt, deadline))) throw error;
    }
  }
}

/**
 * A checked-out client with a listener for its connection dying: the pool listens only on idle
 * clients, and an unheard 'error' would end the process. `release` throws the connection away
 * when it broke, was lost, or reached a replica, and keeps it otherwise.
 */
export interface Checkout {
  readonly client: pg.PoolClient;
  release(error?: unknown): void;
}

export function checkout(client: pg.PoolClient): Checkout {
  let broken: Error | undefined;
  const onError = (error: Error) => { broken = error; };
  client.on('error', onError);
  return {
    client,
    release(error?: unknown) {
      client.off('error', onError);
      if (error !== undefined && (isConnectionLost(error) || isNotLeader(error))) broken ??= error as Error;
      client.release(broken ?? false);
    },
  };
}
