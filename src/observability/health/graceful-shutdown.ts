import type { FastifyInstance } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HealthSettings } from '../../config/health-settings.js';
import type { DrainState } from './readiness-probe.js';

interface ShutdownLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** What one gateway process stops, in the order the steps below take them. */
export interface ShutdownPlan {
  readonly signal: NodeJS.Signals;
  readonly logger: ShutdownLogger;
  readonly drain: DrainState;
  readonly settings: Pick<HealthSettings, 'drainMs' | 'graceMs'>;
  /** The public listener, and the administration listener when there is one. */
  readonly listeners: readonly FastifyInstance[];
  /** Background work of the process (job worker: finishes its current jobs; SFTP), stopped beside the listeners. */
  readonly stopWork: () => Promise<void>;
  /** Last: storage, Redis, the runtime record. */
  readonly release: () => Promise<void>;
}

/**
 * SIGTERM: readiness turns 503 at once while requests are still served for the drain period (a
 * load balancer polling readiness takes the process out); then the listeners stop accepting and
 * the requests in flight get up to the grace period, while the job worker finishes its jobs;
 * storage closes last. SIGINT is a person at a terminal: no drain period, the rest the same.
 */
export async function shutDownGracefully(plan: ShutdownPlan): Promise<void> {
  const { logger, settings, signal } = plan;
  plan.drain.begin();
  const drainMs = signal === 'SIGTERM' ? settings.drainMs : 0;
  // `signal` last: supervisors and tests read `"signal":"SIGTERM","msg":"stopping"`.
  logger.info({ drainMs, graceMs: settings.graceMs, signal }, 'stopping');
  if (drainMs > 0) await sleep(drainMs);
  await Promise.all([...plan.listeners.map((listener) => closeWithin(listener, settings.graceMs, logger)), plan.stopWork()]);
  await plan.release();
}

/**
 * Closes a listener: no new connection, idle keep-alive ones closed, those with a request in
 * flight closed when it is answered. Past `graceMs` the rest are cut, so a stuck handler cannot
 * hold the process.
 */
export async function closeWithin(app: FastifyInstance, graceMs: number, logger: ShutdownLogger): Promise<void> {
  const timer = setTimeout(() => {
    logger.warn({ graceMs }, 'requests still in flight at the end of SHUTDOWN_GRACE_MS: closing their connections');
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}

/** Margin for the job outcomes' last write and the storage's close. */
const RELEASE_MARGIN_MS = 5_000;

/**
 * How long a gateway process may take to stop after SIGTERM: the drain, then the longer of the
 * requests' grace and a running webhook call (the job worker lets it end), then the release. The
 * cluster's primary kills a process only past this.
 */
export function stopBoundMs(settings: Pick<HealthSettings, 'drainMs' | 'graceMs'>, webhookTimeoutMs: number): number {
  return settings.drainMs + Math.max(settings.graceMs, webhookTimeoutMs) + RELEASE_MARGIN_MS;
}
