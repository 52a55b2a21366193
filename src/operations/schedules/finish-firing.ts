import { endSchedule, insertRun, lockSchedule, runsOfSchedule, type RunOutcome, type ScheduleEndReason, type StoredSchedule } from '../../storage/repositories/schedules.js';
import { enqueueNotification } from '../webhooks/enqueue-notification.js';
import type { ScheduleDeps } from './schedule-deps.js';
import { planFiring } from './schedule-firing.js';
import { scheduleBody } from './schedule-view.js';

export type FiringResult =
  | { readonly kind: 'stale' }
  | { readonly kind: 'ran'; readonly outcome: RunOutcome; readonly transactionId: string | null; readonly ended?: ScheduleEndReason | undefined };

export interface FiringOutcome {
  readonly outcome: RunOutcome;
  readonly transactionId: string | null;
  readonly code: string | null;
  readonly endReason?: ScheduleEndReason | undefined;
  /** The next firing, decided under the lock with the schedule as it is then; undefined: the plan is over. */
  readonly next: (locked: StoredSchedule) => { fireAt: Date; attempt: number; runAt: Date } | undefined;
}

/**
 * Records a firing and moves its schedule on, in one transaction under the schedule's row lock.
 * Only the job the schedule names may do this: a second making of the same firing (a job run
 * twice) records nothing new and plans nothing. A payment made while the schedule was being
 * descheduled is still recorded as its run.
 */
export async function finishFiring(deps: ScheduleDeps, firing: { jobId: string; scheduleId: string; fireAt: Date; attempt: number }, outcome: FiringOutcome): Promise<FiringResult> {
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
      return { kind: 'ran', outcome: outcome.outcome, transactionId: outcome.transactionId };
    }
    const reason = outcome.endReason ?? 'completed';
    await endSchedule(tx, locked.id, reason, at);
    const ended: StoredSchedule = { ...locked, status: 'ended', endReason: reason, endedAt: at, fireAt: null, jobId: null, updatedAt: at };
    const payload = { ...scheduleBody(ended, await runsOfSchedule(tx, locked.id)), result: locked.response['result'] };
    await enqueueNotification(tx, { entityId: locked.entityId, type: 'SCHEDULE', action: 'ENDED', payload }, payments);
    return { kind: 'ran', outcome: outcome.outcome, transactionId: outcome.transactionId, ended: reason };
  });
}
