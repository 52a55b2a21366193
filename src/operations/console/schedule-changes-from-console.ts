import { recordChange } from '../audit/record-change.js';
import { advanceSchedule } from '../schedules/advance-schedule.js';
import { descheduleSchedule } from '../schedules/deschedule-schedule.js';
import { rescheduleSchedule } from '../schedules/reschedule-schedule.js';
import type { ScheduleDeps } from '../schedules/schedule-deps.js';
import { wireTime } from '../schedules/schedule-view.js';
import type { ListedSchedule } from '../../storage/repositories/console/schedule-list.js';
import type { ConsoleActor } from './console-action.js';
import { invalidField } from './console-action.js';
import { findVisibleSchedule } from './console-schedules.js';

/**
 * A schedule changed in the console: through the API's own operations (RS, DS, the test clock),
 * with the schedule's row lock, validation and notifications, and the audit entry written in the
 * same transaction. The schedule is found with the person's visibility first, so another
 * merchant's schedule answers like one that does not exist.
 */

const planOf = (found: ListedSchedule) => ({ expression: found.schedule.expression, timeZone: found.schedule.timeZone });

export interface ConsoleRescheduleInput extends ConsoleActor {
  readonly scheduleId: string;
  /** The new Quartz expression (job.expression), validated as the API validates it. */
  readonly expression: string;
  /** An IANA time zone; empty keeps the gateway's default (SCHEDULE_TIME_ZONE), as the API does. */
  readonly timeZone: string;
}

/** RS from the console: the old plan ends, the new one (the expression and time zone given) starts. Answers the new schedule's id. */
export async function rescheduleFromConsole(deps: ScheduleDeps, input: ConsoleRescheduleInput): Promise<string> {
  const found = await findVisibleSchedule(deps.payments.storage, input.visibility, input.scheduleId);
  const expression = input.expression.trim();
  const timeZone = input.timeZone.trim();
  if (expression === '') throw invalidField('job.expression', '', 'enter the new job expression, e.g. 0 0 6 1 * ? *');
  const wire = { 'job.expression': expression, ...(timeZone ? { 'job.timeZone': timeZone } : {}) };
  const view = await rescheduleSchedule(deps, {
    entityId: found.schedule.entityId, scheduleId: found.schedule.id, wire, unknownParameters: 'reject',
    alsoWrite: async (tx, newId) => {
      await recordChange(tx, deps.payments.clock, {
        actor: input.actor, action: 'schedules.reschedule', target: { kind: 'schedule', id: found.schedule.id }, merchantId: found.merchantId,
        before: planOf(found), after: { ...wire, newScheduleId: newId },
      });
    },
  });
  return String(view.body['id']);
}

/** DS from the console: no run after it (or, under a notice, none after the notice allows). */
export async function descheduleFromConsole(deps: ScheduleDeps, input: ConsoleActor & { readonly scheduleId: string }): Promise<void> {
  const found = await findVisibleSchedule(deps.payments.storage, input.visibility, input.scheduleId);
  await descheduleSchedule(deps, {
    entityId: found.schedule.entityId, scheduleId: found.schedule.id,
    alsoWrite: async (tx, after) => {
      await recordChange(tx, deps.payments.clock, {
        actor: input.actor, action: 'schedules.deschedule', target: { kind: 'schedule', id: found.schedule.id }, merchantId: found.merchantId,
        before: { status: found.schedule.status, nextFireTime: wireTime(found.schedule.fireAt) ?? null },
        after: { status: after.status, endDate: wireTime(after.endsAt) ?? null, cancelledAt: wireTime(after.cancelledAt) ?? null },
      });
    },
  });
}

/** The test clock from the console (test system only: the operation refuses on the live one). */
export async function advanceFromConsole(deps: ScheduleDeps, input: ConsoleActor & { readonly scheduleId: string; readonly to: string }): Promise<void> {
  const found = await findVisibleSchedule(deps.payments.storage, input.visibility, input.scheduleId);
  await advanceSchedule(deps.payments, {
    entityId: found.schedule.entityId, scheduleId: found.schedule.id, to: input.to.trim(),
    alsoWrite: async (tx, offsetMs) => {
      await recordChange(tx, deps.payments.clock, {
        actor: input.actor, action: 'schedules.advance', target: { kind: 'schedule', id: found.schedule.id }, merchantId: found.merchantId,
        before: { testClockOffsetSeconds: Math.floor(found.schedule.clockOffsetMs / 1000) }, after: { to: input.to.trim(), testClockOffsetSeconds: Math.floor(offsetMs / 1000) },
      });
    },
  });
}
