import { newShortId } from '../../domain/short-id.js';
import { formatAmount } from '../../domain/money.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { Queryable } from '../../storage/port.js';
import { cancelSchedule, dropScheduleJob, endSchedule, insertScheduleTransaction, lockSchedule, type StoredSchedule } from '../../storage/repositories/schedules.js';
import { enqueueNotification } from '../webhooks/enqueue-notification.js';
import { lastRunUnderNotice } from './cancellation-notice.js';
import { loadSchedule } from './load-schedule.js';
import type { ScheduleDeps } from './schedule-deps.js';
import { scheduleState, scheduleSuccess, wireTime, type ScheduleView } from './schedule-view.js';

const CANNOT_DESCHEDULE = '100.360.303';

const refusal = (id: string, message: string) => new GatewayError(CANNOT_DESCHEDULE, { parameterErrors: [{ name: 'id', value: id, message }] });

/**
 * Where a DS leaves the schedule. Without a notice, or when no run is left before the
 * cancellation takes effect, it ends at once and its waiting job is removed. Under a notice with
 * runs left, it stays active until then: its end moves to the last instant a run may be made, and
 * the runner ends it (DESCHEDULED, with the SCHEDULE ENDED notification) after its last run.
 */
async function endOrCancel(tx: Queryable, locked: StoredSchedule, at: Date): Promise<StoredSchedule> {
  const lastRunAt = lastRunUnderNotice(locked, at);
  if (lastRunAt && locked.fireAt && locked.fireAt <= lastRunAt) {
    await cancelSchedule(tx, locked.id, lastRunAt, at);
    return { ...locked, endsAt: lastRunAt, cancelledAt: at, updatedAt: at };
  }
  if (locked.jobId) await dropScheduleJob(tx, locked.jobId);
  await endSchedule(tx, locked.id, 'descheduled', at);
  return { ...locked, status: 'ended', endReason: 'descheduled', endedAt: at, fireAt: null, jobId: null };
}

export interface DescheduleInput {
  readonly entityId: string;
  readonly scheduleId: string;
  readonly testMode?: string | undefined;
  /** Written in the DS's transaction (the console's audit entry): both commit or neither. */
  readonly alsoWrite?: ((tx: Queryable, after: StoredSchedule) => Promise<void>) | undefined;
}

/**
 * POST /scheduling/v1/schedules/{id}/deschedule (DS): no run after it, or, for a schedule with a
 * cancellation notice, none after the notice allows (docs/schedules.md "Notice and duration").
 * The change is made under the schedule's row lock; a run a worker holds at this moment finds
 * the schedule ended before it pays, or (already paying) is the last one. The DS transaction
 * names the schedule as referencedId.
 */
export async function descheduleSchedule(deps: ScheduleDeps, input: DescheduleInput): Promise<ScheduleView> {
  const { payments } = deps;
  const schedule = await loadSchedule(payments.storage, input.entityId, input.scheduleId);
  if (schedule.status !== 'active') throw refusal(schedule.id, 'the schedule has already ended');
  const id = payments.ids.id();
  const shortId = newShortId();
  const result = scheduleSuccess(payments.system, input.testMode);
  return payments.storage.transaction(async (tx) => {
    const locked = await lockSchedule(tx, schedule.id);
    if (!locked || locked.status !== 'active') throw refusal(schedule.id, 'the schedule has already ended');
    if (locked.cancelledAt) throw refusal(schedule.id, `the schedule is already cancelled: its last run may be made until ${wireTime(locked.endsAt)}`);
    const at = payments.clock.now();
    const after = await endOrCancel(tx, locked, at);
    const body = {
      id,
      referencedId: locked.id,
      paymentType: 'DS',
      registrationId: locked.registrationId,
      amount: formatAmount(locked.amountMinor),
      currency: locked.currency,
      shortId,
      schedule: scheduleState(after),
    };
    const response = { ...body, result };
    await insertScheduleTransaction(tx, {
      id, entityId: locked.entityId, parentId: locked.id, paymentType: 'DS', resultCode: result.code, amountMinor: locked.amountMinor, currency: locked.currency,
      merchantTransactionId: locked.runRequest['merchantTransactionId'] ?? null, shortId, response, at,
    });
    await enqueueNotification(tx, { entityId: locked.entityId, type: 'SCHEDULE', action: 'DESCHEDULED', payload: response }, payments);
    await input.alsoWrite?.(tx, after);
    return { body, result };
  });
}
