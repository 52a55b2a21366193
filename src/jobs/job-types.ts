import type { Queryable } from '../storage/port.js';
import type { ClaimedJob } from '../storage/repositories/jobs.js';

export type { ClaimedJob } from '../storage/repositories/jobs.js';

/** The part of a pino-like logger the workers use; Fastify's app.log fits. */
export interface JobLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** How a job's run counts in gateway_job_runs_total. */
export type JobRunOutcome = 'done' | 'retry' | 'given_up';

/** What a job did. Without runAgainAt the job is finished and leaves the queue. */
export interface JobResult<RecordT> {
  /** A retry the job planned itself (e.g. a webhook's schedule); not counted as a failure. */
  readonly runAgainAt?: Date | undefined;
  /**
   * How the run counts where runAgainAt does not say it: a recurring sweep that planned its next
   * round did its work ('done'); a delivery whose retries ran out 'given_up'. Absent: 'retry'
   * with runAgainAt, else 'done'.
   */
  readonly outcome?: JobRunOutcome | undefined;
  /** Handed to the handler's record() in the transaction that completes the job. */
  readonly record?: RecordT | undefined;
  /**
   * The run wrote jobs that are due now (a sweep handing out status checks): the worker looks for
   * them at once instead of sleeping out its poll interval first.
   */
  readonly enqueuedDueJobs?: boolean | undefined;
}

/**
 * One kind of job. The worker hands it a whole claimed batch so it can load what it needs in
 * one query, and gets one promise per job back, so a slow job never holds up the others.
 * A rejected promise is a failure: the worker retries the job with bounded back-off.
 */
export interface JobHandler<RecordT = unknown> {
  readonly kind: string;
  start(jobs: readonly ClaimedJob[]): Promise<JobResult<RecordT>>[];
  /** Writes the effects of finished jobs, in the same transaction that deletes or reschedules them. */
  record?(tx: Queryable, records: readonly RecordT[]): Promise<void>;
}

export const silentLogger: JobLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
