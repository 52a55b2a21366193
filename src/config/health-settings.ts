import { readInteger, type Env } from './env-readers.js';

/** Readiness checks and the graceful shutdown that turns readiness off first (docs/operations.md). */
export interface HealthSettings {
  /** Each readiness check (database, migrations, Redis, ISO 8583 links, job heartbeat) answers within this, else it failed. */
  readonly checkTimeoutMs: number;
  /** After SIGTERM: readiness answers 503 while requests are still served, so a load balancer stops sending. */
  readonly drainMs: number;
  /** After the drain: requests in flight may finish within this; connections still open are then closed. */
  readonly graceMs: number;
}

export const HEALTH_VARIABLES = [
  ['HEALTH_CHECK_TIMEOUT_MS', '2000', 'Each check of GET /health/ready (database, migrations, Redis, ISO 8583 links, job worker heartbeat) that takes longer has failed, so a hung dependency makes readiness fail quickly. Keep it below the orchestrator\'s probe timeout.'],
  ['SHUTDOWN_DRAIN_MS', '5000', 'After SIGTERM the gateway answers GET /health/ready with 503 (draining) but goes on serving for this long, so a load balancer takes it out first; then it stops accepting connections. SIGINT skips it.'],
  ['SHUTDOWN_GRACE_MS', '30000', 'After the drain, requests in flight may finish within this time; connections still open after it are closed. Then the job worker finishes its current jobs, storage closes and the process exits 0.'],
] as const;

const MAX_SHUTDOWN_MS = 600_000;

/** Reads the health variables, adding any problem to `problems` (loadConfig reports them all). */
export function collectHealthSettings(env: Env, problems: string[]): HealthSettings {
  return Object.freeze({
    checkTimeoutMs: readInteger(env, 'HEALTH_CHECK_TIMEOUT_MS', 2_000, 10, 60_000, problems),
    drainMs: readInteger(env, 'SHUTDOWN_DRAIN_MS', 5_000, 0, MAX_SHUTDOWN_MS, problems),
    graceMs: readInteger(env, 'SHUTDOWN_GRACE_MS', 30_000, 0, MAX_SHUTDOWN_MS, problems),
  });
}
