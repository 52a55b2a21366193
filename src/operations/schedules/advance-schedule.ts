import { GatewayError } from '../../results/gateway-error.js';
import { lockSchedule, moveScheduleJob, runsOfSchedule, setTestClock } from '../../storage/repositories/schedules.js';
import type { Queryable } from '../../storage/port.js';
import type { PaymentDeps } from '../deps.js';
import { loadSchedule, scheduleNow } from './load-schedule.js';
import { scheduleBody, scheduleSuccess, type ScheduleView, wireTime } from './schedule-view.js';

const WIRE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const INVALID_PARAMETER = '200.300.404';

function parseTarget(to: string | undefined): Date {
  const match = to === undefined ? null : WIRE_TIME.exec(to);
  const at = match ? new Date(`${to!.replace(' ', 'T')}Z`) : undefined;
  if (!at || Number.isNaN(at.getTime()) || wireTime(at) !== to) {
    throw new GatewayError(INVALID_PARAMETER, { parameterErrors: [{ name: 'to', value: to ?? '', message: 'must be yyyy-MM-dd HH:mm:ss (UTC): the time to move the schedule to' }] });
  }
  return at;
}

export interface AdvanceInput {
  readonly entityId: string;
  readonly scheduleId: string;
  readonly to: string | undefined;
  /** Written in the advance's transaction (the console's audit entry): both commit or neither. */
  readonly alsoWrite?: ((tx: Queryable, offsetMs: number) => Promise<void>) | undefined;
}

/**
 * The test clock (test system only, beyond the specification): moves one schedule's time forward
 * to `to`. Every fire time up to `to` is then due, and the runner makes them one after the other,
 * each as its own payment on its own date: they were played, not missed, so the catch-up policy
 * does not fold them into one. The real clock, the payments' dates and other schedules stay as
 * they are.
 */
export async function advanceSchedule(deps: PaymentDeps, input: AdvanceInput): Promise<ScheduleView> {
  if (deps.system === 'live') throw new GatewayError('600.200.701', { parameterErrors: [{ name: 'to', value: input.to ?? '', message: 'the test clock exists on the test system only' }] });
  const schedule = await loadSchedule(deps.storage, input.entityId, input.scheduleId);
  const target = parseTarget(input.to);
  await deps.storage.transaction(async (tx) => {
    const locked = await lockSchedule(tx, schedule.id);
    if (!locked || locked.status !== 'active') throw new GatewayError('100.360.300', { parameterErrors: [{ name: 'id', value: schedule.id, message: 'the schedule has ended' }] });
    const realNow = deps.clock.now();
    const current = scheduleNow(realNow, locked);
    if (target <= current) {
      throw new GatewayError(INVALID_PARAMETER, { parameterErrors: [{ name: 'to', value: input.to!, message: `must be later than the schedule's time now (${wireTime(current)})` }] });
    }
    const offsetMs = target.getTime() - realNow.getTime();
    await setTestClock(tx, locked.id, offsetMs, target, realNow);
    if (locked.jobId) await moveScheduleJob(tx, locked.jobId, offsetMs - locked.clockOffsetMs);
    await input.alsoWrite?.(tx, offsetMs);
  });
  const moved = await loadSchedule(deps.storage, input.entityId, schedule.id);
  return { body: scheduleBody(moved, await runsOfSchedule(deps.storage, moved.id)), result: scheduleSuccess(deps.system, undefined) };
}
