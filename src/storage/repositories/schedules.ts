import type { Queryable } from '../port.js';
import { SEARCH_TERMS } from './transactions.js';

/** The SQL of schedules and their runs (migration 019). */

export type ScheduleStatus = 'active' | 'ended';
export type ScheduleEndReason = 'descheduled' | 'rescheduled' | 'completed' | 'deregistered' | 'instruction_expired';
export type RunOutcome = 'success' | 'pending' | 'declined' | 'skipped' | 'failed';

export interface StoredSchedule {
  readonly id: string;
  readonly entityId: string;
  readonly registrationId: string;
  readonly status: ScheduleStatus;
  readonly endReason: ScheduleEndReason | null;
  readonly paymentType: 'DB' | 'PA';
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly expression: string;
  readonly timeZone: string;
  readonly startsAt: Date;
  readonly endsAt: Date | null;
  /** Wire parameters every run sends (amount, currency, paymentType, standingInstruction.* …). */
  readonly runRequest: Readonly<Record<string, string>>;
  /** The job.* fields as sent, by their name without the prefix. */
  readonly job: Readonly<Record<string, string>>;
  readonly fireAt: Date | null;
  readonly attempt: number;
  readonly jobId: string | null;
  readonly clockOffsetMs: number;
  readonly playedUntil: Date | null;
  readonly replacedBy: string | null;
  readonly response: Record<string, unknown>;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly endedAt: Date | null;
  /** A DS under a cancellation notice: when it was given (real time); the schedule ends at endsAt. */
  readonly cancelledAt: Date | null;
}

export interface ScheduleRow {
  id: string;
  entity_id: string;
  registration_id: string;
  status: ScheduleStatus;
  end_reason: ScheduleEndReason | null;
  payment_type: 'DB' | 'PA';
  amount_minor: bigint | string;
  currency: string;
  expression: string;
  time_zone: string;
  starts_at: Date;
  ends_at: Date | null;
  run_request: Record<string, string>;
  job: Record<string, string>;
  fire_at: Date | null;
  attempt: number;
  job_id: bigint | string | null;
  clock_offset_ms: bigint | string;
  played_until: Date | null;
  replaced_by: string | null;
  response: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  ended_at: Date | null;
  cancelled_at: Date | null;
}

export function toStored(r: ScheduleRow): StoredSchedule {
  return {
    id: r.id,
    entityId: r.entity_id,
    registrationId: r.registration_id,
    status: r.status,
    endReason: r.end_reason,
    paymentType: r.payment_type,
    amountMinor: BigInt(r.amount_minor),
    currency: r.currency,
    expression: r.expression,
    timeZone: r.time_zone,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    runRequest: r.run_request,
    job: r.job,
    fireAt: r.fire_at,
    attempt: r.attempt,
    jobId: r.job_id === null ? null : String(r.job_id),
    clockOffsetMs: Number(r.clock_offset_ms),
    playedUntil: r.played_until,
    replacedBy: r.replaced_by,
    response: r.response,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    endedAt: r.ended_at,
    cancelledAt: r.cancelled_at ?? null,
  };
}

export async function insertSchedule(tx: Queryable, s: StoredSchedule): Promise<void> {
  await tx.query(
    `INSERT INTO schedules (id, entity_id, registration_id, status, end_reason, payment_type, amount_minor, currency, expression, time_zone,
       starts_at, ends_at, run_request, job, fire_at, attempt, job_id, clock_offset_ms, played_until, replaced_by, response, created_at, updated_at, ended_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)`,
    [
      s.id, s.entityId, s.registrationId, s.status, s.endReason, s.paymentType, s.amountMinor.toString(), s.currency, s.expression, s.timeZone,
      s.startsAt, s.endsAt, JSON.stringify(s.runRequest), JSON.stringify(s.job), s.fireAt, s.attempt, s.jobId, String(s.clockOffsetMs), s.playedUntil,
      s.replacedBy, JSON.stringify(s.response), s.createdAt, s.updatedAt, s.endedAt,
    ] as never[],
  );
}

// A merchant's entityId also reaches the schedules of its channels; a channel's only its own.
const ENTITY_SCOPE = `(entity_id = $2 OR entity_id IN (SELECT id FROM entities WHERE merchant_id = $2))`;

/** The schedule with that id, if the entity may see it. */
export async function findSchedule(db: Queryable, entityId: string, id: string): Promise<StoredSchedule | undefined> {
  const { rows } = await db.query<ScheduleRow>(`SELECT * FROM schedules WHERE id = $1 AND ${ENTITY_SCOPE}`, [id, entityId]);
  return rows[0] ? toStored(rows[0]) : undefined;
}

/** Schedules by id, whatever their entity: for the runner, never for a merchant's request. */
export async function findSchedulesById(db: Queryable, ids: readonly string[]): Promise<Map<string, StoredSchedule>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<ScheduleRow>('SELECT * FROM schedules WHERE id = ANY($1::char(32)[])', [[...ids]]);
  return new Map(rows.map((r) => [r.id, toStored(r)]));
}

/** Locks a schedule for a change of its plan or its firing; every such change takes this lock first. */
export async function lockSchedule(tx: Queryable, id: string): Promise<StoredSchedule | undefined> {
  const { rows } = await tx.query<ScheduleRow>('SELECT * FROM schedules WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] ? toStored(rows[0]) : undefined;
}

export async function listSchedulesOfRegistration(db: Queryable, entityId: string, registrationId: string): Promise<StoredSchedule[]> {
  const { rows } = await db.query<ScheduleRow>(`SELECT * FROM schedules WHERE registration_id = $1 AND ${ENTITY_SCOPE} ORDER BY created_at, id`, [registrationId, entityId]);
  return rows.map(toStored);
}

export interface Firing {
  readonly fireAt: Date;
  readonly attempt: number;
  readonly jobId: string;
}

/** The next firing of an active schedule. */
export async function setFiring(tx: Queryable, id: string, firing: Firing, at: Date): Promise<void> {
  await tx.query('UPDATE schedules SET fire_at = $2, attempt = $3, job_id = $4, updated_at = $5 WHERE id = $1', [id, firing.fireAt, firing.attempt, firing.jobId, at]);
}

export async function endSchedule(tx: Queryable, id: string, reason: ScheduleEndReason, at: Date, replacedBy: string | null = null): Promise<void> {
  await tx.query(
    `UPDATE schedules SET status = 'ended', end_reason = $2, ended_at = $3, updated_at = $3, fire_at = NULL, job_id = NULL, replaced_by = $4 WHERE id = $1`,
    [id, reason, at, replacedBy],
  );
}

/**
 * A cancellation under notice (DS): the schedule stays active, its runs end at `endsAt` (the last
 * instant a run may be made) and `cancelledAt` marks its coming end as DESCHEDULED.
 */
export async function cancelSchedule(tx: Queryable, id: string, endsAt: Date, cancelledAt: Date): Promise<void> {
  await tx.query('UPDATE schedules SET ends_at = $2, cancelled_at = $3, updated_at = $3 WHERE id = $1', [id, endsAt, cancelledAt]);
}

export async function setTestClock(tx: Queryable, id: string, clockOffsetMs: number, playedUntil: Date, at: Date): Promise<void> {
  await tx.query('UPDATE schedules SET clock_offset_ms = $2, played_until = $3, updated_at = $4 WHERE id = $1', [id, String(clockOffsetMs), playedUntil, at]);
}

/**
 * The schedule's job row, not yet claimed: brought `earlierByMs` forward (a test clock moved the
 * schedule's time by that much; a first attempt and a retry alike) or removed (the schedule
 * ended). A job a worker holds is left alone: a firing under way plans its successor with the
 * schedule's clock as it is then, and a removed schedule's job finds the schedule ended.
 */
export async function moveScheduleJob(tx: Queryable, jobId: string, earlierByMs: number): Promise<void> {
  await tx.query(`UPDATE jobs SET run_at = run_at - make_interval(secs => $2::float8 / 1000) WHERE id = $1 AND locked_by IS NULL`, [jobId, earlierByMs]);
}

export async function dropScheduleJob(tx: Queryable, jobId: string): Promise<void> {
  await tx.query('DELETE FROM jobs WHERE id = $1 AND locked_by IS NULL', [jobId]);
}

export interface ScheduleRun {
  readonly scheduleId: string;
  readonly fireAt: Date;
  readonly attempt: number;
  readonly outcome: RunOutcome;
  readonly transactionId: string | null;
  readonly resultCode: string | null;
  readonly ranAt: Date;
}

/** Records an attempt once; a second record of the same attempt changes nothing. */
export async function insertRun(tx: Queryable, run: ScheduleRun): Promise<void> {
  await tx.query(
    `INSERT INTO schedule_runs (schedule_id, fire_at, attempt, outcome, transaction_id, result_code, ran_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [run.scheduleId, run.fireAt, run.attempt, run.outcome, run.transactionId, run.resultCode, run.ranAt],
  );
}

interface RunRow {
  schedule_id: string;
  fire_at: Date;
  attempt: number;
  outcome: RunOutcome;
  transaction_id: string | null;
  result_code: string | null;
  ran_at: Date;
}

export async function runsOfSchedule(db: Queryable, scheduleId: string): Promise<ScheduleRun[]> {
  const { rows } = await db.query<RunRow>('SELECT * FROM schedule_runs WHERE schedule_id = $1 ORDER BY fire_at, attempt', [scheduleId]);
  return rows.map((r) => ({ scheduleId: r.schedule_id, fireAt: r.fire_at, attempt: r.attempt, outcome: r.outcome, transactionId: r.transaction_id, resultCode: r.result_code, ranAt: r.ran_at }));
}

/** An SD, RS or DS transaction: moves no money, but is listed by /v1/query like every other. */
export interface ScheduleTransaction {
  readonly id: string;
  readonly entityId: string;
  readonly parentId: string | null;
  readonly paymentType: 'SD' | 'RS' | 'DS';
  readonly resultCode: string;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly merchantTransactionId: string | null;
  readonly shortId: string;
  readonly response: Record<string, unknown>;
  readonly at: Date;
}

export async function insertScheduleTransaction(tx: Queryable, t: ScheduleTransaction): Promise<void> {
  await tx.query(
    `INSERT INTO transactions (id, entity_id, parent_id, payment_type, status, result_code, amount_minor, currency, merchant_transaction_id,
       short_id, connector_id, response, created_at, updated_at, search_terms)
     SELECT id, entity_id, parent_id, payment_type, status, result_code, amount_minor, currency, merchant_transaction_id,
            short_id, connector_id, response, created_at, updated_at, ${SEARCH_TERMS}
       FROM (VALUES ($1::char(32), $2::char(32), $3::char(32), $4::text, 'success'::text, $5::text, $6::bigint, $7::char(3), $8::text,
              $9::text, 'scheduler'::text, $10::json, $11::timestamptz, $11::timestamptz, NULL::text))
         AS t (id, entity_id, parent_id, payment_type, status, result_code, amount_minor, currency, merchant_transaction_id,
               short_id, connector_id, response, created_at, updated_at, payment_brand)`,
    [t.id, t.entityId, t.parentId, t.paymentType, t.resultCode, t.amountMinor.toString(), t.currency, t.merchantTransactionId, t.shortId, JSON.stringify(t.response), t.at] as never[],
  );
}

export interface FiringMove {
  readonly scheduleId: string;
  /** The job that made the firing: only while the schedule still names it does the move happen. */
  readonly fromJobId: string;
  /** The schedule's test-clock offset the next firing was planned with; a changed one refuses the move. */
  readonly clockOffsetMs: number;
  /** Its cancellation as read (null: none): a cancellation since moved its end, so it refuses the move. */
  readonly cancelledAt: Date | null;
  readonly run: ScheduleRun;
  readonly next: { readonly fireAt: Date; readonly attempt: number; readonly runAt: Date; readonly jobKind: string };
  readonly at: Date;
}

/**
 * The common end of a firing in one statement: while the schedule is active, still names the
 * job that made the firing and keeps the clock the next firing was planned with, it records the
 * run, writes the next job and points the schedule at it. The UPDATE takes the schedule's row
 * lock and checks the conditions again on the row as it is then, so of two makings of the same
 * firing only one moves the schedule. Answers false when nothing was written (the caller then
 * takes the locked path, which knows what to record).
 */
export async function moveFiring(db: Queryable, m: FiringMove): Promise<boolean> {
  const payload = JSON.stringify({ scheduleId: m.scheduleId, fireAt: m.next.fireAt.toISOString(), attempt: m.next.attempt });
  const { rows } = await db.query<{ moved: string }>(
    `WITH next_job AS (SELECT nextval(pg_get_serial_sequence('jobs', 'id')) AS id),
     moved AS (
       UPDATE schedules SET fire_at = $4, attempt = $5, job_id = (SELECT id FROM next_job), updated_at = $6
        WHERE id = $1 AND job_id = $2 AND status = 'active' AND clock_offset_ms = $3 AND cancelled_at IS NOT DISTINCT FROM $15::timestamptz
        RETURNING id),
     run AS (
       INSERT INTO schedule_runs (schedule_id, fire_at, attempt, outcome, transaction_id, result_code, ran_at)
       SELECT $1, $7, $8, $9, $10, $11, $6 FROM moved
       ON CONFLICT DO NOTHING),
     job AS (
       INSERT INTO jobs (id, kind, payload, run_at, created_at) OVERRIDING SYSTEM VALUE
       SELECT (SELECT id FROM next_job), $12, $13::jsonb, $14, $6 FROM moved)
     SELECT count(*) AS moved FROM moved`,
    [
      m.scheduleId, m.fromJobId, String(m.clockOffsetMs), m.next.fireAt, m.next.attempt, m.at,
      m.run.fireAt, m.run.attempt, m.run.outcome, m.run.transactionId, m.run.resultCode, m.next.jobKind, payload, m.next.runAt, m.cancelledAt,
    ] as never[],
  );
  return Number(rows[0]?.moved ?? 0) > 0;
}
