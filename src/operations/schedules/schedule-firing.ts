import type { Queryable } from '../../storage/port.js';
import { enqueueJob } from '../../storage/repositories/jobs.js';
import { setFiring } from '../../storage/repositories/schedules.js';

/** The job kind that makes one firing (a fire time, or a retry of it) of one schedule. */
export const SCHEDULE_RUN_JOB = 'schedule-run';

/**
 * The real time a fire time is due at: the schedule's time runs clockOffsetMs ahead of the real
 * one once a test clock has moved it.
 */
export function dueAt(fireAt: Date, clockOffsetMs: number): Date {
  return new Date(fireAt.getTime() - clockOffsetMs);
}

export interface NextFiring {
  readonly scheduleId: string;
  readonly fireAt: Date;
  readonly attempt: number;
  /** When the job runs (real time): the fire time's due time, or a retry's. */
  readonly runAt: Date;
  readonly at: Date;
}

/**
 * Plans a firing: its job (the outbox row a worker claims) and the schedule's pointer to it, in
 * the caller's transaction, so a schedule is never without its next job or with two.
 */
export async function planFiring(tx: Queryable, next: NextFiring): Promise<string> {
  const jobId = await enqueueJob(tx, {
    kind: SCHEDULE_RUN_JOB,
    payload: { scheduleId: next.scheduleId, fireAt: next.fireAt.toISOString(), attempt: next.attempt },
    runAt: next.runAt,
    createdAt: next.at,
  });
  await setFiring(tx, next.scheduleId, { fireAt: next.fireAt, attempt: next.attempt, jobId }, next.at);
  return jobId;
}
