import type { Queryable } from '../port.js';

/**
 * The job queue as operators read it (the console's background jobs), beside the workers' own SQL
 * in jobs.ts. A job's state comes from the columns the workers write: given up (failed_at), running
 * (leased), failing (failed before, waiting for its next try), due, or later.
 */
export type JobStateName = 'due' | 'later' | 'running' | 'failing' | 'given-up';

const STATE_SQL = `CASE WHEN failed_at IS NOT NULL THEN 'given-up'
                        WHEN locked_by IS NOT NULL THEN 'running'
                        WHEN failure_count > 0 THEN 'failing'
                        WHEN run_at <= $1 THEN 'due'
                        ELSE 'later' END`;

/** A job that failed and that no worker holds now: one an operator may run again. */
const FAILED_AND_FREE = '(failed_at IS NOT NULL OR failure_count > 0) AND locked_by IS NULL';

export interface FailedJobRow {
  readonly id: string;
  readonly kind: string;
  readonly failureCount: number;
  readonly lastError: string | null;
  readonly runAt: Date;
  readonly failedAt: Date | null;
  readonly createdAt: Date;
}

interface Row { id: string; kind: string; failure_count: number; last_error: string | null; run_at: Date; failed_at: Date | null; created_at: Date }

function toFailed(row: Row): FailedJobRow {
  return { id: String(row.id), kind: row.kind, failureCount: Number(row.failure_count), lastError: row.last_error, runAt: new Date(row.run_at), failedAt: row.failed_at ? new Date(row.failed_at) : null, createdAt: new Date(row.created_at) };
}

const COLUMNS = 'id::text AS id, kind, failure_count, last_error, run_at, failed_at, created_at';

export async function countJobsByKindAndState(db: Queryable, now: Date): Promise<{ kind: string; state: JobStateName; count: number }[]> {
  const { rows } = await db.query<{ kind: string; state: JobStateName; n: number | bigint }>(`SELECT kind, ${STATE_SQL} AS state, count(*) AS n FROM jobs GROUP BY 1, 2 ORDER BY 1`, [now]);
  return rows.map((r) => ({ kind: r.kind, state: r.state, count: Number(r.n) }));
}

/** Given up first, then the most failures. */
export async function listFailedJobs(db: Queryable, kind: string | undefined, limit: number): Promise<FailedJobRow[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM jobs WHERE ${FAILED_AND_FREE} AND ($1::text IS NULL OR kind = $1) ORDER BY failed_at IS NULL, failure_count DESC, id LIMIT $2`,
    [kind ?? null, limit],
  );
  return rows.map(toFailed);
}

export async function findFailedJob(db: Queryable, id: string): Promise<FailedJobRow | undefined> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM jobs WHERE id = $1 AND ${FAILED_AND_FREE}`, [id]);
  return rows[0] ? toFailed(rows[0]) : undefined;
}

const MAKE_DUE = 'UPDATE jobs SET run_at = $2, failure_count = 0, last_error = NULL, failed_at = NULL';

/** Due at `now` with a fresh count of failures; the kind of the job, or undefined when it is not a free failed job. */
export async function makeFailedJobDue(db: Queryable, id: string, now: Date): Promise<string | undefined> {
  const { rows } = await db.query<{ kind: string }>(`${MAKE_DUE} WHERE id = $1 AND ${FAILED_AND_FREE} RETURNING kind`, [id, now]);
  return rows[0]?.kind;
}

export async function makeFailedJobsOfKindDue(db: Queryable, kind: string, now: Date): Promise<number> {
  return (await db.query(`${MAKE_DUE} WHERE kind = $1 AND ${FAILED_AND_FREE}`, [kind, now])).rowCount;
}
