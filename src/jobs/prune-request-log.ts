import type { Clock } from '../domain/ids.js';
import type { Queryable } from '../storage/port.js';
import { deleteApiRequestsBefore } from '../storage/repositories/api-request-log.js';
import type { JobHandler, JobLogger, JobResult } from './job-types.js';

export const PRUNE_REQUEST_LOG_JOB = 'prune-request-log';

/** Rows one run deletes; a full batch runs again at once, so a backlog drains without long locks. */
const BATCH = 10_000;
/** The log is read by people looking at recent requests; an hour past the retention costs nothing. */
const INTERVAL_MS = 60 * 60_000;

export interface PruneRequestLogDeps {
  readonly storage: Queryable;
  readonly clock: Clock;
  readonly logger: JobLogger;
  readonly retentionDays: number;
}

/**
 * 'prune-request-log': the one durable job (written by migration 051) that deletes API requests
 * older than REQUEST_LOG_RETENTION_DAYS, so the request log stays the size of its retention.
 */
export function pruneRequestLogHandler(deps: PruneRequestLogDeps): JobHandler {
  return { kind: PRUNE_REQUEST_LOG_JOB, start: (jobs) => jobs.map(() => pruneOnce(deps)) };
}

async function pruneOnce(deps: PruneRequestLogDeps): Promise<JobResult<never>> {
  const now = deps.clock.now();
  try {
    const deleted = await deleteApiRequestsBefore(deps.storage, new Date(now.getTime() - deps.retentionDays * 86_400_000), BATCH);
    if (deleted > 0) deps.logger.info({ deleted }, 'old API requests deleted from the request log');
    if (deleted === BATCH) return { runAgainAt: now, outcome: 'done' };
  } catch (error) {
    deps.logger.warn({ err: { type: (error as Error).name } }, 'request log pruning failed; trying again at the next run');
    return { runAgainAt: new Date(now.getTime() + INTERVAL_MS), outcome: 'retry' };
  }
  return { runAgainAt: new Date(now.getTime() + INTERVAL_MS), outcome: 'done' };
}
