import { validateRequest } from '../../catalogue/index.js';
import { GatewayError } from '../../results/gateway-error.js';
import { dropScheduleJob, endSchedule, lockSchedule } from '../../storage/repositories/schedules.js';
import { startPlan } from './create-schedule.js';
import { loadSchedule, scheduleNow } from './load-schedule.js';
import type { Queryable } from '../../storage/port.js';
import type { ScheduleDeps } from './schedule-deps.js';
import type { ScheduleView } from './schedule-view.js';

export interface RescheduleInput {
  readonly entityId: string;
  readonly scheduleId: string;
  /** The request's wire parameters: the new job.* fields and anything of the run to change. */
  readonly wire: Readonly<Record<string, string>>;
  readonly unknownParameters?: 'reject' | 'ignore' | undefined;
  /** Written in the RS's transaction (the console's audit entry): both commit or neither. */
  readonly alsoWrite?: ((tx: Queryable, newId: string) => Promise<void>) | undefined;
}

const CANNOT_SCHEDULE = '100.360.300';

/**
 * POST /scheduling/v1/schedules/{id}/reschedule (RS): the old plan ends and a new one starts, in
 * one transaction. The new plan is the request's job.* fields; amount, currency, paymentType and
 * the standing instruction are the old plan's unless the request changes them; the registration
 * stays. The RS transaction's id is the new schedule's id, its referencedId the old one.
 */
export async function rescheduleSchedule(deps: ScheduleDeps, input: RescheduleInput): Promise<ScheduleView> {
  const old = await loadSchedule(deps.payments.storage, input.entityId, input.scheduleId);
  if (old.status !== 'active') throw new GatewayError(CANNOT_SCHEDULE, { parameterErrors: [{ name: 'id', value: old.id, message: 'the schedule has ended; create a new one' }] });
  const { registrationId: _ignored, ...changes } = input.wire;
  const wire = { ...old.runRequest, ...changes, entityId: input.entityId, registrationId: old.registrationId };
  const now = deps.payments.clock.now();
  const validated = validateRequest('schedule', wire, { now, unknownParameters: input.unknownParameters ?? 'reject' });
  if (!validated.ok) throw new GatewayError(validated.code, { parameterErrors: validated.parameterErrors });
  return startPlan(deps, {
    entityId: input.entityId,
    request: validated.request,
    wire,
    paymentType: 'RS',
    now: scheduleNow(now, old),
    clockOffsetMs: old.clockOffsetMs,
    playedUntil: old.playedUntil,
    endPrevious: async (tx, newId) => {
      const locked = await lockSchedule(tx, old.id);
      if (!locked || locked.status !== 'active') throw new GatewayError(CANNOT_SCHEDULE, { parameterErrors: [{ name: 'id', value: old.id, message: 'the schedule has ended; create a new one' }] });
      if (locked.jobId) await dropScheduleJob(tx, locked.jobId);
      await endSchedule(tx, old.id, 'rescheduled', deps.payments.clock.now(), newId);
      await input.alsoWrite?.(tx, newId);
      return old.id;
    },
  });
}
