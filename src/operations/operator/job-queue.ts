import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { Queryable } from '../../storage/port.js';

/**
 * The background job queue as an operator sees it. States, from the columns the workers write
 * (storage/repositories/jobs.ts): running (leased by a worker), given up (failed_at: parked after
 * JOB_MAX_FAILURES), failing (failed at least once, waiting for its next try), due (waiting for a
 * worker now) and later (planned for a later time: a webhook's next attempt, tomorrow's settlement).
 */
export const JOB_STATES = ['due', 'later', 'running', 'failing', 'given-up'] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface JobCounts {
  readonly kind: string;
  readonly counts: Readonly<Record<JobState, number>>;
}

export interface TroubledJob {
  readonly jobId: string;
  readonly kind: string;
  readonly state: 'failing' | 'given-up';
  readonly failureCount: number;
  /** The handler's last error, any card-number-like digit run masked (a connector may quote what it was sent). */
  readonly lastError: string;
  readonly nextRunAt: Date;
  readonly failedAt: Date | null;
  readonly createdAt: Date;
}

const STATE_SQL = `CASE WHEN failed_at IS NOT NULL THEN 'given-up'
                        WHEN locked_by IS NOT NULL THEN 'running'
                        WHEN failure_count > 0 THEN 'failing'
                        WHEN run_at <= $1 THEN 'due'
                        ELSE 'later' END`;

const JOB_ID = /^[1-9][0-9]{0,17}$/;
export const TROUBLED_JOBS_SHOWN = 100;

export async function countJobs(db: Queryable, now: Date): Promise<JobCounts[]> {
  const { rows } = await db.query<{ kind: string; state: JobState; n: number | bigint }>(
    `SELECT kind, ${STATE_SQL} AS state, count(*) AS n FROM jobs GROUP BY 1, 2 ORDER BY 1`,
    [now],
  );
  const byKind = new Map<string, Record<JobState, number>>();
  for (const row of rows) {
    const counts = byKind.get(row.kind) ?? { due: 0, later: 0, running: 0, failing: 0, 'given-up': 0 };
    counts[row.state] = Number(row.n);
    byKind.set(row.kind, counts);
  }
  return [...byKind].map(([kind, counts]) => ({ kind, counts }));
}

interface TroubledRow { id: bigint | string; kind: string; failure_count: number; last_error: string | null; run_at: Date; failed_at: Date | null; created_at: Date }

function troubled(row: TroubledRow): TroubledJob {
  return {
    jobId: String(row.id), kind: row.kind, state: row.failed_at ? 'given-up' : 'failing', failureCount: Number(row.failure_count),
    lastError: maskPanLikeDigits(row.last_error ?? ''), nextRunAt: new Date(row.run_at), failedAt: row.failed_at ? new Date(row.failed_at) : null, createdAt: new Date(row.created_at),
  };
}

/** Jobs that failed (given up first, then the most failures), never those a worker holds now. */
export async function listTroubledJobs(db: Queryable, kind?: string): Promise<TroubledJob[]> {
  const { rows } = await db.query<TroubledRow>(
    `SELECT id, kind, failure_count, last_error, run_at, failed_at, created_at FROM jobs
      WHERE (failed_at IS NOT NULL OR failure_count > 0) AND locked_by IS NULL AND ($1::text IS NULL OR kind = $1)
      ORDER BY failed_at IS NULL, failure_count DESC, id LIMIT ${TROUBLED_JOBS_SHOWN}`,
    [kind ?? null],
  );
  return rows.map(troubled);
}

function jobNotFound(jobId: string): GatewayError {
  return new GatewayError('200.300.404', { httpStatus: 404, parameterErrors: [{ name: 'job', value: maskPanLikeDigits(jobId).slice(0, 32), message: 'no failed job has this id' }] });
}

/** The job as it was before a retry (the audit entry's before), or undefined when it is not a failed job. */
export async function findTroubledJob(db: Queryable, jobId: string): Promise<TroubledJob | undefined> {
  if (!JOB_ID.test(jobId)) return undefined;
  const { rows } = await db.query<TroubledRow>(
    'SELECT id, kind, failure_count, last_error, run_at, failed_at, created_at FROM jobs WHERE id = $1 AND (failed_at IS NOT NULL OR failure_count > 0) AND locked_by IS NULL',
    [jobId],
  );
  return rows[0] ? troubled(rows[0]) : undefined;
}

/**
 * Runs a failed job again now, with a fresh count of failures (the back-off starts over): a given-up
 * job is claimable again. A job a worker holds is left alone (its worker writes the outcome).
 */
export async function retryJob(deps: { readonly storage: Queryable; readonly clock: { now(): Date } }, jobId: string): Promise<{ jobId: string; kind: string }> {
  if (!JOB_ID.test(jobId)) throw jobNotFound(jobId);
  const { rows } = await deps.storage.query<{ kind: string }>(
    `UPDATE jobs SET run_at = $2, failure_count = 0, last_error = NULL, failed_at = NULL
      WHERE id = $1 AND (failed_at IS NOT NULL OR failure_count > 0) AND locked_by IS NULL RETURNING kind`,
    [jobId, deps.clock.now()],
  );
  if (!rows[0]) throw jobNotFound(jobId);
  return { jobId, kind: rows[0].kind };
}

/** Every failed job of one kind, as retryJob does for one. */
export async function retryJobsOfKind(deps: { readonly storage: Queryable; readonly clock: { now(): Date } }, kind: string): Promise<{ kind: string; retried: number }> {
  const result = await deps.storage.query(
    `UPDATE jobs SET run_at = $2, failure_count = 0, last_error = NULL, failed_at = NULL
      WHERE kind = $1 AND (failed_at IS NOT NULL OR failure_count > 0) AND locked_by IS NULL`,
    [kind, deps.clock.now()],
  );
  if (result.rowCount === 0) {
    throw new GatewayError('200.300.404', { httpStatus: 404, parameterErrors: [{ name: 'kind', value: maskPanLikeDigits(kind).slice(0, 64), message: 'no failed job of this kind' }] });
  }
  return { kind, retried: result.rowCount };
}
