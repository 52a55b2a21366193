import { createHash } from 'node:crypto';
import { echoRequest } from '../../catalogue/index.js';
import { fireTimes, splitExpression } from '../../domain/schedules/cron.js';
import { isLate, nextFireTime, passedOverFireTimes, retryAdvice, retryTime, shouldRun, type Moment } from '../../domain/schedules/plan.js';
import { outcomeGroupOf } from '../../domain/outcome-group.js';
import { GatewayError } from '../../results/gateway-error.js';
import { isPendingCode, isSuccessCode } from '../../results/catalogue.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { findSchedulesById, type RunOutcome, type ScheduleEndReason, type StoredSchedule } from '../../storage/repositories/schedules.js';
import { findTransactionByIdempotencyClaim, IDEMPOTENCY_CLAIM_INDEX } from '../../storage/repositories/transactions.js';
import { payWithRegistration } from '../registrations/pay-with-registration.js';
import { runPaymentRequest } from './run-request.js';
import { observeRefusal } from '../payments/observe-payment.js';
import type { ScheduleDeps } from './schedule-deps.js';
import { scheduleNow } from './load-schedule.js';
import { finishFiring, type FiringResult, type NextFiringPlan } from './finish-firing.js';

/** One due firing, as its job names it. */
export interface DueFiring {
  readonly jobId: string;
  readonly scheduleId: string;
  readonly fireAt: Date;
  readonly attempt: number;
  /** When its job was due (real time): a retry's planned time. Absent: the fire time. */
  readonly dueAt?: Date | undefined;
}

/**
 * The idempotency claim of a firing's payment: derived from the schedule, the fire time and the
 * attempt, and unique among transactions. A firing made twice (its worker died after paying,
 * before the schedule moved on) finds the payment of the first time instead of paying again.
 */
export function firingClaimId(scheduleId: string, fireAt: Date, attempt: number): string {
  return createHash('sha256').update(`schedule-run:${scheduleId}:${fireAt.toISOString()}:${attempt}`).digest('hex').slice(0, 32);
}

interface Paid {
  readonly outcome: RunOutcome;
  readonly transactionId: string | null;
  readonly code: string | null;
  readonly merchantAdviceCode?: string | undefined;
  readonly endReason?: ScheduleEndReason | undefined;
}

function outcomeOf(code: string): RunOutcome {
  if (isSuccessCode(code)) return 'success';
  return isPendingCode(code) ? 'pending' : 'declined';
}

function adviceCodeOf(body: Record<string, unknown>): string | undefined {
  const details = body['resultDetails'] as Record<string, unknown> | undefined;
  const value = details?.['MerchantAdviceCode'] ?? details?.['merchantAdviceCode'];
  return typeof value === 'string' ? value : undefined;
}

async function pay(deps: ScheduleDeps, schedule: StoredSchedule, firing: DueFiring): Promise<Paid> {
  const { payments } = deps;
  const claimId = firingClaimId(schedule.id, firing.fireAt, firing.attempt);
  try {
    const request = runPaymentRequest(schedule.entityId, schedule.runRequest, payments.clock.now());
    const view = await payWithRegistration(payments, { entityId: schedule.entityId, registrationId: schedule.registrationId, request, echo: echoRequest(request), idempotencyClaimId: claimId });
    return { outcome: outcomeOf(view.result.code), transactionId: String(view.body['id']), code: view.result.code, merchantAdviceCode: adviceCodeOf(view.body) };
  } catch (error) {
    if (isUniqueViolation(error, IDEMPOTENCY_CLAIM_INDEX)) {
      const earlier = await findTransactionByIdempotencyClaim(payments.storage, schedule.entityId, claimId);
      if (earlier) return { outcome: outcomeOf(earlier.resultCode), transactionId: earlier.id, code: earlier.resultCode };
    }
    if (!(error instanceof GatewayError)) throw error;
    // Refused before any payment was written: deregistered in the meantime, or a rule of the route or standing instruction.
    // Counted as the run's answer (a payment the run made is counted by the payment itself; a failure is tried again, not counted).
    observeRefusal(payments.observe, { entityId: schedule.entityId, paymentType: schedule.runRequest['paymentType'] }, error);
    return { outcome: 'failed', transactionId: null, code: error.code, ...(error.code === '100.150.202' ? { endReason: 'deregistered' as const } : {}) };
  }
}

/**
 * A standing instruction past its expiry ends the schedule before any payment. (A deregistered
 * registration ends it too: the payment refuses it with 100.150.202, without a query of its own here.)
 */
function reasonToEnd(schedule: StoredSchedule, fireAt: Date): ScheduleEndReason | undefined {
  const expiry = schedule.runRequest['standingInstruction.expiry'];
  return expiry && fireAt.toISOString().slice(0, 10) > expiry ? 'instruction_expired' : undefined;
}

/**
 * Makes one due firing of a schedule: decides (catch-up policy), pays through the normal path of
 * a payment with a registration (MIT REPEATED, the scheme reference of the initial CIT), then
 * moves the schedule on: a retry of a soft decline, the next fire time, or its end. Answers
 * 'stale' when the job is no longer the schedule's (it ran before, or the schedule changed).
 */
export async function runFiring(deps: ScheduleDeps, firing: DueFiring, known?: StoredSchedule): Promise<FiringResult> {
  const schedule = known ?? (await findSchedulesById(deps.payments.storage, [firing.scheduleId])).get(firing.scheduleId);
  if (!schedule || schedule.status !== 'active' || schedule.jobId !== firing.jobId) return { kind: 'stale' };
  const moment: Moment = { now: scheduleNow(deps.payments.clock.now(), schedule), playedUntil: schedule.playedUntil, missedAfterMs: deps.settings.missedAfterMs };
  const endReason = reasonToEnd(schedule, firing.fireAt);
  const missed = !endReason && firing.attempt === 0 && !shouldRun(firing.fireAt, moment, deps.settings.catchUp);
  let paid: Paid;
  if (endReason) paid = { outcome: 'skipped', transactionId: null, code: null, endReason };
  else if (missed) paid = { outcome: 'skipped', transactionId: null, code: null };
  else paid = await pay(deps, schedule, firing);
  const result = await finishFiring(deps, firing, { ...paid, next: (current) => nextPlan(deps, schedule, firing, paid, current) }, schedule);
  observeFiring(deps, { firing, schedule, moment, paid, missed, result });
  return result;
}

/**
 * The metrics of a firing: a run made (late or on time, by outcome group), or a fire time missed
 * (skipped by SCHEDULE_CATCH_UP=skip, or passed over on the way to the next one). A firing whose
 * job was no longer the schedule's reports only a payment it made.
 */
function observeFiring(deps: ScheduleDeps, f: { firing: DueFiring; schedule: StoredSchedule; moment: Moment; paid: Paid; missed: boolean; result: FiringResult }): void {
  const { observe } = deps.payments;
  const made = f.paid.outcome !== 'skipped' && (f.result.kind === 'ran' || f.paid.transactionId !== null);
  if (made) {
    // A retry is due when it was planned for, not at the fire time it retries.
    const dueAt = f.firing.attempt > 0 && f.firing.dueAt ? new Date(f.firing.dueAt.getTime() + f.schedule.clockOffsetMs) : f.firing.fireAt;
    observe.scheduleRun({ late: isLate(dueAt, f.moment, deps.settings.lateAfterMs), outcome: f.paid.code ? outcomeGroupOf(f.paid.code) : 'error' });
  }
  const missed = (f.missed && f.result.kind === 'ran' ? 1 : 0) + (f.result.kind === 'ran' ? f.result.passedOver ?? 0 : 0);
  if (missed > 0) observe.scheduleRunMissed(missed);
}

/** After the run: a retry (soft decline, before the next fire time), the next fire time, or nothing (the plan is over). */
function nextPlan(deps: ScheduleDeps, schedule: StoredSchedule, firing: DueFiring, paid: Paid, locked: StoredSchedule): NextFiringPlan | undefined {
  const now = scheduleNow(deps.payments.clock.now(), locked);
  const moment: Moment = { now, playedUntil: locked.playedUntil, missedAfterMs: deps.settings.missedAfterMs };
  const times = fireTimes(splitExpression(schedule.expression)!, schedule.timeZone);
  // The window as it is now: a cancellation given during the run moved its end.
  const window = { startsAt: locked.startsAt, endsAt: locked.endsAt ?? undefined };
  const nextFire = nextFireTime(times, window, firing.fireAt, moment);
  if (paid.outcome === 'declined' && retryAdvice(paid.code ?? '', paid.merchantAdviceCode).retry) {
    const retryAt = retryTime(now, firing.attempt, deps.settings.retryDelaysMs, nextFire);
    if (retryAt) return { fireAt: firing.fireAt, attempt: firing.attempt + 1, runAt: new Date(retryAt.getTime() - locked.clockOffsetMs) };
  }
  if (!nextFire) return undefined;
  const passedOver = passedOverFireTimes(times, window, firing.fireAt, nextFire, now);
  return { fireAt: nextFire, attempt: 0, runAt: new Date(nextFire.getTime() - locked.clockOffsetMs), passedOver };
}
