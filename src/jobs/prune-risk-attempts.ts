import { WINDOW_MINUTES_MAX } from '../domain/risk/parse-rule-set.js';
import type { Clock } from '../domain/ids.js';
import type { Queryable } from '../storage/port.js';
import { deleteAttemptsBefore } from '../storage/repositories/risk-attempts.js';
import type { JobHandler, JobLogger, JobResult } from './job-types.js';

export const PRUNE_RISK_ATTEMPTS_JOB = 'prune-risk-attempts';

/** Rows one run deletes; a full batch runs again at once, so a backlog drains without long locks. */
const BATCH = 10_000;
/** Attempts become useless a window after they happened; an hour late costs nothing. */
const INTERVAL_MS = 60 * 60_000;

export interface PruneRiskAttemptsDeps {
  readonly storage: Queryable;
  readonly clock: Clock;
  readonly logger: JobLogger;
}

/**
 * 'prune-risk-attempts': the one durable job (written by migration 021) that deletes velocity
 * attempts older than the longest window a rule may have (a week), so the table stays the size
 * of a week's traffic.
 */
export function pruneRiskAttemptsHandler(deps: PruneRiskAttemptsDeps): JobHandler {
  return {
    kind: PRUNE_RISK_ATTEMPTS_JOB,
    start: (jobs) => jobs.map(() => pruneOnce(deps)),
  };
}

async function pruneOnce(deps: PruneRiskAttemptsDeps): Promise<JobResult<never>> {
  const now = deps.clock.now();
  try {
    const deleted = await deleteAttemptsBefore(deps.storage, new Date(now.getTime() - WINDOW_MINUTES_MAX * 60_000), BATCH);
    if (deleted > 0) deps.logger.info({ deleted }, 'old risk attempts deleted');
    if (deleted === BATCH) return { runAgainAt: now, outcome: 'done' };
  } catch (error) {
    deps.logger.warn({ err: { type: (error as Error).name } }, 'risk attempt pruning failed; trying again at the next run');
    return { runAgainAt: new Date(now.getTime() + INTERVAL_MS), outcome: 'retry' };
  }
  return { runAgainAt: new Date(now.getTime() + INTERVAL_MS), outcome: 'done' };
}
