import type { Clock } from '../domain/ids.js';
import type { Queryable } from '../storage/port.js';
import type { JobHandler, JobLogger, JobResult } from './job-types.js';

/** Rows one run deletes; a full batch runs again at once, so a backlog drains without long locks. */
const BATCH = 10_000;
/** Old rows cost only space; an hour late costs nothing. */
const INTERVAL_MS = 60 * 60_000;

export interface PruneSpec {
  /** The durable job's kind (one row, written by the table's migration). */
  readonly kind: string;
  /** What the log calls the rows ("old risk attempts"). */
  readonly rows: string;
  /** Rows older than this instant go. */
  readonly cutoff: (now: Date) => Date;
  readonly deleteBefore: (db: Queryable, before: Date, limit: number) => Promise<number>;
}

export interface PruneDeps {
  readonly storage: Queryable;
  readonly clock: Clock;
  readonly logger: JobLogger;
}

/**
 * A durable job that keeps a table the size of its retention: each run deletes a batch of rows
 * older than the cutoff, runs again at once while batches come back full, then waits an hour.
 */
export function pruneOlderRowsHandler(spec: PruneSpec, deps: PruneDeps): JobHandler {
  return { kind: spec.kind, start: (jobs) => jobs.map(() => pruneOnce(spec, deps)) };
}

async function pruneOnce(spec: PruneSpec, deps: PruneDeps): Promise<JobResult<never>> {
  const now = deps.clock.now();
  try {
    const deleted = await spec.deleteBefore(deps.storage, spec.cutoff(now), BATCH);
    if (deleted > 0) deps.logger.info({ deleted }, `${spec.rows} deleted`);
    if (deleted === BATCH) return { runAgainAt: now, outcome: 'done' };
  } catch (error) {
    deps.logger.warn({ err: { type: (error as Error).name } }, `pruning ${spec.rows} failed; trying again at the next run`);
    return { runAgainAt: new Date(now.getTime() + INTERVAL_MS), outcome: 'retry' };
  }
  return { runAgainAt: new Date(now.getTime() + INTERVAL_MS), outcome: 'done' };
}
