import { newShortId } from '../../domain/short-id.js';
import { formatAmount } from '../../domain/money.js';
import { GatewayError } from '../../results/gateway-error.js';
import { dropScheduleJob, endSchedule, insertScheduleTransaction, lockSchedule } from '../../storage/repositories/schedules.js';
import { enqueueNotification } from '../webhooks/enqueue-notification.js';
import { loadSchedule } from './load-schedule.js';
import type { ScheduleDeps } from './schedule-deps.js';
import { scheduleState, scheduleSuccess, type ScheduleView } from './schedule-view.js';

const CANNOT_DESCHEDULE = '100.360.303';

/**
 * POST /scheduling/v1/schedules/{id}/deschedule (DS): no run after it. The schedule ends under
 * its row lock and its waiting job is removed; a run a worker holds at this moment finds the
 * schedule ended before it pays, or (already paying) is the last one. The DS transaction names
 * the schedule as referencedId.
 */
export async function descheduleSchedule(deps: ScheduleDeps, input: { entityId: string; scheduleId: string; testMode?: string | undefined }): Promise<ScheduleView> {
  const { payments } = deps;
  const schedule = await loadSchedule(payments.storage, input.entityId, input.scheduleId);
  const refusal = new GatewayError(CANNOT_DESCHEDULE, { parameterErrors: [{ name: 'id', value: schedule.id, message: 'the schedule has already ended' }] });
  if (schedule.status !== 'active') throw refusal;
  const id = payments.ids.id();
  const shortId = newShortId();
  const result = scheduleSuccess(payments.system, input.testMode);
  return payments.storage.transaction(async (tx) => {
    const locked = await lockSchedule(tx, schedule.id);
    if (!locked || locked.status !== 'active') throw refusal;
    const at = payments.clock.now();
    if (locked.jobId) await dropScheduleJob(tx, locked.jobId);
    await endSchedule(tx, locked.id, 'descheduled', at);
    const ended = { ...locked, status: 'ended' as const, endReason: 'descheduled' as const, endedAt: at, fireAt: null, jobId: null };
    const body = {
      id,
      referencedId: locked.id,
      paymentType: 'DS',
      registrationId: locked.registrationId,
      amount: formatAmount(locked.amountMinor),
      currency: locked.currency,
      shortId,
      schedule: scheduleState(ended),
    };
    const response = { ...body, result };
    await insertScheduleTransaction(tx, {
      id, entityId: locked.entityId, parentId: locked.id, paymentType: 'DS', resultCode: result.code, amountMinor: locked.amountMinor, currency: locked.currency,
      merchantTransactionId: locked.runRequest['merchantTransactionId'] ?? null, shortId, response, at,
    });
    await enqueueNotification(tx, { entityId: locked.entityId, type: 'SCHEDULE', action: 'DESCHEDULED', payload: response }, payments);
    return { body, result };
  });
}
