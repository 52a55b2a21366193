import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { Queryable } from '../../storage/port.js';
import { countJobsByKindAndState, findFailedJob, listFailedJobs, makeFailedJobDue, makeFailedJobsOfKindDue, type FailedJobRow, type JobStateName } from '../../storage/repositories/failed-jobs.js';

/**
 * The background job queue as an operator sees it: running (leased by a worker), given up (parked
 * after JOB_MAX_FAILURES), failing (failed at least once, waiting for its next try), due (waiting
 * for a worker now) and later (planned: a webhook's next attempt, tomorrow's settlement).
 */
export const JOB_STATES: readonly JobStateName[] = ['due', 'later', 'running', 'failing', 'given-up'];
export type JobState = JobStateName;

export interface JobCounts {
  readonly kind: string;
  readonly counts: Readonly<Record<JobState, number>>;
}

export interface TroubledJob {
  readonly jobId: string;
  readonly kind: string;
  readonly state: 'failing' | 'given-up';
  readonly failureCount: number;
  /** The handler's last error, card-number-like digit runs masked (rows written before the workers masked them too). */
  readonly lastError: string;
  readonly nextRunAt: Date;
  readonly failedAt: Date | null;
  readonly createdAt: Date;
}

const JOB_ID = /^[1-9][0-9]{0,17}$/;
export const TROUBLED_JOBS_SHOWN = 100;

export async function countJobs(db: Queryable, now: Date): Promise<JobCounts[]> {
  const byKind = new Map<string, Record<JobState, number>>();
  for (const row of await countJobsByKindAndState(db, now)) {
    const counts = byKind.get(row.kind) ?? { due: 0, later: 0, running: 0, failing: 0, 'given-up': 0 };
    counts[row.state] = row.count;
    byKind.set(row.kind, counts);
  }
  return [...byKind].map(([kind, counts]) => ({ kind, counts }));
}

function troubled(row: FailedJobRow): TroubledJob {
  return {
    jobId: row.id, kind: row.kind, state: row.failedAt ? 'given-up' : 'failing', failureCount: row.failureCount,
    lastError: maskPanLikeDigits(row.lastError ?? ''), nextRunAt: row.runAt, failedAt: row.failedAt, createdAt: row.createdAt,
  };
}

/** Jobs that failed (given up first, then the most failures), never those a worker holds now. */
export async function listTroubledJobs(db: Queryable, kind?: string): Promise<TroubledJob[]> {
  return (await listFailedJobs(db, kind, TROUBLED_JOBS_SHOWN)).map(troubled);
}

/** The job as it was before a retry (the audit entry's before), or undefined when it is not a failed job. */
export async function findTroubledJob(db: Queryable, jobId: string): Promise<TroubledJob | undefined> {
  if (!JOB_ID.test(jobId)) return undefined;
  const row = await findFailedJob(db, jobId);
  return row ? troubled(row) : undefined;
}

function jobNotFound(jobId: string): GatewayError {
  return new GatewayError('200.300.404', { httpStatus: 404, parameterErrors: [{ name: 'job', value: maskPanLikeDigits(jobId).slice(0, 32), message: 'no failed job has this id' }] });
}

/**
 * Runs a failed job again now, with a fresh count of failures (the back-off starts over): a given-up
 * job is claimable again. A job a worker holds is left alone (its worker writes the outcome).
 */
export async function retryJob(deps: { readonly storage: Queryable; readonly clock: { now(): Date } }, jobId: string): Promise<{ jobId: string; kind: string }> {
  const kind = JOB_ID.test(jobId) ? await makeFailedJobDue(deps.storage, jobId, deps.clock.now()) : undefined;
  if (kind === undefined) throw jobNotFound(jobId);
  return { jobId, kind };
}

/** Every failed job of one kind, as retryJob does for one. */
export async function retryJobsOfKind(deps: { readonly storage: Queryable; readonly clock: { now(): Date } }, kind: string): Promise<{ kind: string; retried: number }> {
  const retried = await makeFailedJobsOfKindDue(deps.storage, kind, deps.clock.now());
  if (retried === 0) {
    throw new GatewayError('200.300.404', { httpStatus: 404, parameterErrors: [{ name: 'kind', value: maskPanLikeDigits(kind).slice(0, 64), message: 'no failed job of this kind' }] });
  }
  return { kind, retried };
}
