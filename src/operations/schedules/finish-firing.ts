import { endSchedule, insertRun, lockSchedule, moveFiring, runsOfSchedule, type RunOutcome, type ScheduleEndReason, type StoredSchedule } from '../../storage/repositories/schedules.js';
import { enqueueNotification } from '../webhooks/enqueue-notification.js';
import type { ScheduleDeps } from './schedule-deps.js';
import { planFiring, SCHEDULE_RUN_JOB } from './schedule-firing.js';
import { scheduleBody } from './schedule-view.js';

export type FiringResult =
  | { readonly kind: 'stale' }
  | {
      readonly kind: 'ran';
      readonly outcome: RunOutcome;
      readonly transactionId: string | null;
      readonly ended?: ScheduleEndReason | undefined;
      /** Fire times after this one the schedule skipped on its way to the next (missed while the gateway was down). */
      readonly passedOver?: number | undefined;
    };

/** The firing after this one: a retry of it, or the next fire time (with the fire times passed over to reach it). */
export interface NextFiringPlan {
  readonly fireAt: Date;
  readonly attempt: number;
  readonly runAt: Date;
  readonly passedOver?: number | undefined;
}

export interface FiringOutcome {
  readonly outcome: RunOutcome;
  readonly transactionId: string | null;
  readonly code: string | null;
  readonly endReason?: ScheduleEndReason | undefined;
  /** The next firing, decided under the lock with the schedule as it is then; undefined: the plan is over. */
  readonly next: (locked: StoredSchedule) => NextFiringPlan | undefined;
}

/**
 * Records a firing and moves its schedule on, in one transaction under the schedule's row lock.
 * Only the job the schedule names may do this: a second making of the same firing (a job run
 * twice) records nothing new and plans nothing. A payment made while the schedule was being
 * descheduled is still recorded as its run.
 */
export async function finishFiring(
  deps: ScheduleDeps,
  firing: { jobId: string; scheduleId: string; fireAt: Date; attempt: number },
  outcome: FiringOutcome,
  known?: StoredSchedule,
): Promise<FiringResult> {
  const moved = known ? await movedInOneStatement(deps, firing, outcome, known) : undefined;
  if (moved) return { kind: 'ran', outcome: outcome.outcome, transactionId: outcome.transactionId, passedOver: moved.passedOver };
  return finishUnderLock(deps, firing, outcome);
}

/**
 * The common case, a schedule that goes on, in one statement (moveFiring, shared with the moves
 * of concurrent firings) instead of a transaction of five: the next firing is planned with the schedule as read before the run, and
 * the statement refuses the move when the schedule changed since (its job, its state, its test
 * clock). The end of a schedule, and every refusal, take the locked path. Answers the firing
 * planned, or undefined when it took neither.
 */
async function movedInOneStatement(deps: ScheduleDeps, firing: { jobId: string; scheduleId: string; fireAt: Date; attempt: number }, outcome: FiringOutcome, known: StoredSchedule): Promise<NextFiringPlan | undefined> {
  if (outcome.endReason) return undefined;
  const next = outcome.next(known);
  if (!next) return undefined;
  const at = deps.payments.clock.now();
  const moved = await moveFiring(deps.payments.storage, {
    scheduleId: firing.scheduleId,
    fromJobId: firing.jobId,
    clockOffsetMs: known.clockOffsetMs,
    cancelledAt: known.cancelledAt,
    run: { scheduleId: firing.scheduleId, fireAt: firing.fireAt, attempt: firing.attempt, outcome: outcome.outcome, transactionId: outcome.transactionId, resultCode: outcome.code, ranAt: at },
    next: { fireAt: next.fireAt, attempt: next.attempt, runAt: next.runAt, jobKind: SCHEDULE_RUN_JOB },
    at,
  });
  return moved ? next : undefined;
}

async function finishUnderLock(deps: ScheduleDeps, firing: { jobId: string; scheduleId: string; fireAt: Date; attempt: number }, outcome: FiringOutcome): Promise<FiringResult> {
  const { payments } = deps;
  return payments.storage.transaction(async (tx) => {
    const locked = await lockSchedule(tx, firing.scheduleId);
    if (!locked) return { kind: 'stale' };
    const at = payments.clock.now();
    const ours = locked.status === 'active' && locked.jobId === firing.jobId;
    if (!ours && outcome.transactionId === null) return { kind: 'stale' };
    await insertRun(tx, { scheduleId: locked.id, fireAt: firing.fireAt, attempt: firing.attempt, outcome: outcome.outcome, transactionId: outcome.transactionId, resultCode: outcome.code, ranAt: at });
    if (!ours) return { kind: 'stale' };
    const next = outcome.endReason ? undefined : outcome.next(locked);
    if (next) {
      await planFiring(tx, { scheduleId: locked.id, fireAt: next.fireAt, attempt: next.attempt, runAt: next.runAt, at });
      return { kind: 'ran', outcome: outcome.outcome, transactionId: outcome.transactionId, passedOver: next.passedOver };
    }
    // A cancellation given under notice ends the schedule when its last run is made: DESCHEDULED.
    const reason = outcome.endReason ?? (locked.cancelledAt ? 'descheduled' : 'completed');
    await endSchedule(tx, locked.id, reason, at);
    const ended: StoredSchedule = { ...locked, status: 'ended', endReason: reason, endedAt: at, fireAt: null, jobId: null, updatedAt: at };
    const payload = { ...scheduleBody(ended, await runsOfSchedule(tx, locked.id)), result: locked.response['result'] };
    await enqueueNotification(tx, { entityId: locked.entityId, type: 'SCHEDULE', action: 'ENDED', payload }, payments);
    return { kind: 'ran', outcome: outcome.outcome, transactionId: outcome.transactionId, ended: reason };
  });
}
