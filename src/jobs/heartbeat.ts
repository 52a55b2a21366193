import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { PACKAGE_VERSION } from '../observability/package-version.js';
import type { Storage } from '../storage/port.js';
import { pruneHeartbeats, recordHeartbeat, removeHeartbeat, type HeartbeatRole } from '../storage/repositories/worker-heartbeats.js';
import { describe } from './job-worker.js';
import type { JobLogger } from './job-types.js';

/** How often a job worker process writes its heartbeat row. */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** Readiness wants a beat younger than this: three beats missed, not one slow write. */
export const HEARTBEAT_MAX_AGE_MS = 3 * HEARTBEAT_INTERVAL_MS;
/**
 * A gateway process beats for the console's system status only (no readiness check reads it), so
 * rarely: one small write per process every 10 s, on a timer, never on a request's path.
 */
export const GATEWAY_HEARTBEAT_INTERVAL_MS = 10_000;
/** Rows of processes that died without stopping are deleted once this old (well past any readiness bound, six gateway beats). */
const HEARTBEAT_PRUNE_AFTER_MS = 4 * HEARTBEAT_MAX_AGE_MS;

export interface HeartbeatOptions {
  readonly storage: Storage;
  readonly workerId: string;
  readonly logger: JobLogger;
  readonly intervalMs?: number;
  /** A job worker unless said otherwise. */
  readonly role?: HeartbeatRole;
}

export interface RunningHeartbeat {
  /** Stops beating and deletes the row: a stopped worker must not look alive. */
  stop(): Promise<void>;
}

/**
 * Beats at once and then every interval, beside the job loop of one process, so that every
 * gateway's readiness can tell that background jobs run somewhere (worker_heartbeats, 034).
 */
export function startHeartbeat(options: HeartbeatOptions): RunningHeartbeat {
  const { storage, workerId, logger } = options;
  const role = options.role ?? 'worker';
  const worker = { workerId, host: hostname(), pid: process.pid, role, version: PACKAGE_VERSION };
  let failing = false;
  let beating: Promise<void> | undefined;
  const beat = async () => {
    try {
      await recordHeartbeat(storage, worker);
      await pruneHeartbeats(storage, HEARTBEAT_PRUNE_AFTER_MS);
      if (failing) logger.info({ workerId }, `${role} heartbeat written again`);
      failing = false;
    } catch (error) {
      // Once per outage: the job loop logs the database's absence too.
      if (!failing) logger.warn({ workerId, err: describe(error) }, `${role} heartbeat failed`);
      failing = true;
    }
  };
  const tick = () => {
    beating ??= beat().finally(() => (beating = undefined));
  };
  tick();
  const timer = setInterval(tick, options.intervalMs ?? HEARTBEAT_INTERVAL_MS).unref();
  return {
    async stop() {
      clearInterval(timer);
      await beating;
      await removeHeartbeat(storage, workerId).catch(() => undefined);
    },
  };
}

/** A gateway process's beat (main.ts): the console's system status lists it beside the job workers. */
export function startGatewayHeartbeat(storage: Storage, logger: JobLogger): RunningHeartbeat {
  const workerId = `gateway:${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  return startHeartbeat({ storage, workerId, logger, role: 'gateway', intervalMs: GATEWAY_HEARTBEAT_INTERVAL_MS });
}
