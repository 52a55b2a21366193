import { LOOKUP_BATCH, perStorage } from '../batched-lookup.js';
import { createGroupCommit, type ItemResult } from '../group-commit.js';
import type { Queryable, Storage } from '../port.js';
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

/** A move as a row of moveFiringGroup's recordset; `ord` says which item of the group it is. */
function moveRow(m: FiringMove, ord: number) {
  return {
    ord,
    schedule_id: m.scheduleId,
    from_job_id: m.fromJobId,
    clock_offset_ms: String(m.clockOffsetMs),
    cancelled_at: m.cancelledAt,
    at: m.at,
    run_fire_at: m.run.fireAt,
    run_attempt: m.run.attempt,
    outcome: m.run.outcome,
    transaction_id: m.run.transactionId,
    result_code: m.run.resultCode,
    next_fire_at: m.next.fireAt,
    next_attempt: m.next.attempt,
    next_run_at: m.next.runAt,
    job_kind: m.next.jobKind,
    payload: { scheduleId: m.scheduleId, fireAt: m.next.fireAt.toISOString(), attempt: m.next.attempt },
  };
}

/**
 * The common end of a group of firings in one statement: each schedule that is active, still
 * names the job that made its firing and keeps the clock its next firing was planned with gets
 * its run recorded, its next job written (an id of its own from the jobs' sequence) and points
 * at it. The UPDATE takes each schedule's row lock and checks the conditions again on the row as
 * it is then, so of two makings of the same firing only one moves the schedule.
 *
 * The same firing twice in one group (a job run twice at once): only its first item is offered
 * to the UPDATE (DISTINCT ON), so no schedule is joined with two source rows, and so none is
 * moved twice or given two jobs. Items of one schedule with different jobs may both be offered:
 * only the one whose job the schedule names can match. Answers per item whether it moved; one
 * that did not takes the locked path, which knows what to record.
 */
async function moveFiringGroup(db: Queryable, moves: readonly FiringMove[]): Promise<ItemResult<boolean>[]> {
  const { rows } = await db.query<{ ord: number }>(
    `WITH asked AS (
       SELECT DISTINCT ON (m.schedule_id, m.from_job_id) m.*
         FROM json_to_recordset($1::json) AS m(ord int, schedule_id bpchar, from_job_id bigint, clock_offset_ms bigint, cancelled_at timestamptz,
              at timestamptz, run_fire_at timestamptz, run_attempt int, outcome text, transaction_id bpchar, result_code text,
              next_fire_at timestamptz, next_attempt int, next_run_at timestamptz, job_kind text, payload jsonb)
        ORDER BY m.schedule_id, m.from_job_id, m.ord),
     moved AS (
       UPDATE schedules s SET fire_at = a.next_fire_at, attempt = a.next_attempt, job_id = nextval(pg_get_serial_sequence('jobs', 'id')), updated_at = a.at
         FROM asked a
        WHERE s.id = a.schedule_id AND s.job_id = a.from_job_id AND s.status = 'active' AND s.clock_offset_ms = a.clock_offset_ms
          AND s.cancelled_at IS NOT DISTINCT FROM a.cancelled_at
        RETURNING a.*, s.job_id AS next_job_id),
     run AS (
       INSERT INTO schedule_runs (schedule_id, fire_at, attempt, outcome, transaction_id, result_code, ran_at)
       SELECT schedule_id, run_fire_at, run_attempt, outcome, transaction_id, result_code, at FROM moved
       ON CONFLICT DO NOTHING),
     job AS (
       INSERT INTO jobs (id, kind, payload, run_at, created_at) OVERRIDING SYSTEM VALUE
       SELECT next_job_id, job_kind, payload, next_run_at, at FROM moved)
     SELECT ord FROM moved`,
    [JSON.stringify(moves.map(moveRow))],
  );
  const moved = new Set(rows.map((row) => Number(row.ord)));
  return moves.map((_, ord) => ({ ok: true, value: moved.has(ord) }));
}

const firingMoves = perStorage((storage: Storage) => {
  const group = createGroupCommit<FiringMove, boolean>({ storage, name: 'move-firing', write: moveFiringGroup, transactional: false, maxGroupSize: LOOKUP_BATCH.maxBatch, maxConcurrentGroups: 1 });
  return (move: FiringMove) => group.submit(move);
});

/**
 * Moves a schedule on after a firing (moveFiringGroup), in one statement with the moves of
 * concurrent firings (group commit): a second of due runs shares its writes as its payments do.
 * Answers false when nothing was written.
 */
export async function moveFiring(storage: Storage, move: FiringMove): Promise<boolean> {
  return (await firingMoves(storage, move)) === true;
}
