import type { Clock } from '../domain/ids.js';
import { rollUpOverview } from '../operations/overview/roll-up-overview.js';
import type { Storage } from '../storage/port.js';
import type { JobHandler, JobLogger, JobResult } from './job-types.js';

export const ROLL_UP_OVERVIEW_JOB = 'roll-up-overview';
/** The overview reads what the rollup has not live; a minute keeps that part small. */
const INTERVAL_MS = 60_000;

export interface RollUpOverviewDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: JobLogger;
}

/**
 * 'roll-up-overview': the one durable job (written by migration 054) that keeps the console
 * overview's daily rollup up to date from its watermark. It runs again at once until caught up.
 */
export function rollUpOverviewHandler(deps: RollUpOverviewDeps): JobHandler {
  return { kind: ROLL_UP_OVERVIEW_JOB, start: (jobs) => jobs.map(() => rollUpOnce(deps)) };
}

async function rollUpOnce(deps: RollUpOverviewDeps): Promise<JobResult<never>> {
  const now = deps.clock.now();
  try {
    const result = await rollUpOverview(deps);
    if (result.read > 0) deps.logger.info({ read: result.read }, 'overview rollup moved on');
    if (!result.caughtUp) return { runAgainAt: now, outcome: 'done' };
  } catch (error) {
    deps.logger.warn({ err: { type: (error as Error).name } }, 'overview rollup failed; trying again at the next run');
    return { runAgainAt: new Date(now.getTime() + INTERVAL_MS), outcome: 'retry' };
  }
  return { runAgainAt: new Date(now.getTime() + INTERVAL_MS), outcome: 'done' };
}
