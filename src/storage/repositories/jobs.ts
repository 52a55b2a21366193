import { currentTraceParent } from '../../observability/tracing/job-trace.js';
import type { Queryable } from '../port.js';

/**
 * The SQL of the job queue. Locking strategy: a claim takes due, unlocked rows with
 * FOR UPDATE SKIP LOCKED (so concurrent claimers, in one process or many, never wait for or take
 * each other's rows) and stamps them with the claimer's id and a lease in the same statement.
 * Every later write about a job names that claimer, so a worker whose lease was swept cannot
 * complete or reschedule a job another worker has taken over since.
 */
export interface ClaimedJob {
  /** bigint as decimal text: jobs are many, and text travels in arrays on both drivers. */
  readonly id: string;
  readonly kind: string;
  readonly payload: Record<string, unknown>;
  readonly runAt: Date;
  readonly failureCount: number;
  readonly createdAt: Date;
  /** The W3C traceparent of the request that wrote the job, when it was traced (null otherwise). */
  readonly traceParent?: string | null;
}

export interface NewJob {
  readonly kind: string;
  readonly payload: Record<string, unknown>;
  /** Absent: now, by the database's clock. Operations pass their injected clock's time. */
  readonly runAt?: Date | undefined;
  /** Defaults to runAt. */
  readonly createdAt?: Date | undefined;
}

/**
 * The outbox call: writes the job in the caller's transaction, so it exists only if that commits.
 * With tracing on, the job carries the caller's trace context (its run joins the caller's trace).
 */
export async function enqueueJob(tx: Queryable, job: NewJob): Promise<string> {
  const { rows } = await tx.query<{ id: bigint }>(
    `INSERT INTO jobs (kind, payload, run_at, created_at, trace_parent)
     VALUES ($1, $2, COALESCE($3::timestamptz, now()), COALESCE($4::timestamptz, $3::timestamptz, now()), $5)
     RETURNING id`,
    [job.kind, JSON.stringify(job.payload), job.runAt ?? null, job.createdAt ?? null, currentTraceParent() ?? null],
  );
  return String(rows[0]!.id);
}

export interface ClaimRequest {
  readonly workerId: string;
  readonly kinds: readonly string[];
  readonly now: Date;
  readonly leaseUntil: Date;
  readonly limit: number;
}

interface JobRow {
  id: bigint;
  kind: string;
  payload: Record<string, unknown>;
  run_at: Date;
  failure_count: number;
  created_at: Date;
  trace_parent: string | null;
}

/** Takes up to `limit` due jobs of the given kinds, oldest due first. */
export async function claimJobs(db: Queryable, request: ClaimRequest): Promise<ClaimedJob[]> {
  const { rows } = await db.query<JobRow>(
    `UPDATE jobs SET locked_by = $1, locked_until = $2
      WHERE id IN (
        SELECT id FROM jobs
         WHERE locked_by IS NULL AND failed_at IS NULL AND run_at <= $3 AND kind = ANY($4::text[])
         ORDER BY run_at, id
         LIMIT $5
         FOR UPDATE SKIP LOCKED)
     RETURNING id, kind, payload, run_at, failure_count, created_at, trace_parent`,
    [request.workerId, request.leaseUntil, request.now, [...request.kinds], request.limit],
  );
  return rows
    .map((r) => ({ id: String(r.id), kind: r.kind, payload: r.payload, runAt: r.run_at, failureCount: r.failure_count, createdAt: r.created_at, traceParent: r.trace_parent }))
    .sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || Number(BigInt(a.id) - BigInt(b.id)));
}

/** Finished jobs leave the table: the history lives in the tables of each kind (e.g. attempts). */
export async function deleteJobs(tx: Queryable, workerId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await tx.query('DELETE FROM jobs WHERE id = ANY($1::bigint[]) AND locked_by = $2', [[...ids], workerId]);
  return result.rowCount;
}

export interface JobReschedule {
  readonly id: string;
  readonly runAt: Date;
  readonly failureCount: number;
  readonly lastError: string | null;
  /** Set to give up on a job that keeps failing. */
  readonly failedAt: Date | null;
}

/** Unlocks jobs to run again later, all in one statement. */
export async function rescheduleJobs(tx: Queryable, workerId: string, jobs: readonly JobReschedule[]): Promise<number> {
  if (jobs.length === 0) return 0;
  const result = await tx.query(
    `UPDATE jobs SET run_at = d.run_at, failure_count = d.failure_count, last_error = d.last_error,
            failed_at = d.failed_at, locked_by = NULL, locked_until = NULL
       FROM unnest($1::bigint[], $2::timestamptz[], $3::int[], $4::text[], $5::timestamptz[])
            AS d(id, run_at, failure_count, last_error, failed_at)
      WHERE jobs.id = d.id AND jobs.locked_by = $6`,
    [
      jobs.map((j) => j.id),
      jobs.map((j) => j.runAt.toISOString()),
      jobs.map((j) => String(j.failureCount)),
      jobs.map((j) => j.lastError ?? null) as string[],
      jobs.map((j) => j.failedAt?.toISOString() ?? null) as string[],
      workerId,
    ],
  );
  return result.rowCount;
}

/** Returns jobs whose lease ran out (their worker died or hung) to the queue. */
export async function sweepExpiredLeases(db: Queryable, now: Date): Promise<number> {
  const result = await db.query('UPDATE jobs SET locked_by = NULL, locked_until = NULL WHERE locked_by IS NOT NULL AND locked_until < $1', [now]);
  return result.rowCount;
}

/** Lets a stopping worker hand back jobs it claimed but never started. */
export async function releaseJobs(db: Queryable, workerId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.query('UPDATE jobs SET locked_by = NULL, locked_until = NULL WHERE id = ANY($1::bigint[]) AND locked_by = $2', [[...ids], workerId]);
  return result.rowCount;
}
