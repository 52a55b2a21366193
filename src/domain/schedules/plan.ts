import type { FireTimes } from './cron.js';

/**
 * When a schedule runs: its window (start, end, duration), which fire time comes next, what a
 * fire time that was missed while the gateway was down becomes (the catch-up policy), and when a
 * declined run is tried again. Pure rules; the clock is passed in as `now`.
 */

export type TimeUnit = 'YEAR' | 'MONTH' | 'WEEK' | 'DAY' | 'HOUR' | 'MINUTE' | 'SECOND';
/** once: a run missed while the gateway was down is made once, late; skip: it is not made. */
export type CatchUpPolicy = 'once' | 'skip';

const UNIT_MS: Readonly<Record<Exclude<TimeUnit, 'YEAR' | 'MONTH'>, number>> = { WEEK: 604_800_000, DAY: 86_400_000, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1_000 };
/** Beyond any fire time an expression can have (year 2099): a longer duration means no end. */
const FAR_FUTURE_MS = Date.UTC(2100, 0, 1);

/** `at` plus `count` units, by the calendar in UTC for years and months (31 Jan + 1 month = 3 Mar, as Date does). */
export function addUnits(at: Date, unit: TimeUnit, count: number): Date {
  if (!Number.isFinite(count) || count > 10_000_000) return new Date(FAR_FUTURE_MS);
  if (unit === 'YEAR' || unit === 'MONTH') {
    const next = new Date(at);
    next.setUTCMonth(next.getUTCMonth() + (unit === 'YEAR' ? 12 : 1) * count);
    return next.getTime() > FAR_FUTURE_MS ? new Date(FAR_FUTURE_MS) : next;
  }
  return new Date(Math.min(at.getTime() + UNIT_MS[unit] * count, FAR_FUTURE_MS));
}

export interface WindowInput {
  readonly createdAt: Date;
  readonly startDate?: Date | undefined;
  readonly endDate?: Date | undefined;
  readonly durationUnit?: TimeUnit | undefined;
  readonly durationNumber?: number | undefined;
}

/** The time a schedule may run in: from job.startDate (or its creation) until job.endDate or the end of its duration, whichever is first. */
export interface ScheduleWindow {
  readonly startsAt: Date;
  readonly endsAt: Date | undefined;
}

export function scheduleWindow(input: WindowInput): ScheduleWindow {
  const startsAt = input.startDate && input.startDate > input.createdAt ? input.startDate : input.createdAt;
  const durationEnd = input.durationUnit && input.durationNumber !== undefined ? addUnits(input.startDate ?? input.createdAt, input.durationUnit, input.durationNumber) : undefined;
  const ends = [input.endDate, durationEnd].filter((d): d is Date => d !== undefined);
  return { startsAt, endsAt: ends.length ? new Date(Math.min(...ends.map((d) => d.getTime()))) : undefined };
}

const within = (window: ScheduleWindow, at: Date | undefined): Date | undefined => (at && (!window.endsAt || at <= window.endsAt) ? at : undefined);

/** The first fire time of a schedule: at or after its start, inside its window. */
export function firstFireTime(times: FireTimes, window: ScheduleWindow): Date | undefined {
  return within(window, times.after(new Date(window.startsAt.getTime() - 1)));
}

export interface Moment {
  /** The schedule's own time: the real time plus its test clock's offset. */
  readonly now: Date;
  /** Fire times up to here were passed by the test clock: played, never missed. */
  readonly playedUntil: Date | null | undefined;
  readonly missedAfterMs: number;
}

/** A fire time the gateway did not make in time because it was down (not one a test clock passed). */
export function isMissed(fireAt: Date, moment: Moment): boolean {
  if (moment.playedUntil && fireAt <= moment.playedUntil) return false;
  return moment.now.getTime() - fireAt.getTime() > moment.missedAfterMs;
}

/**
 * Whether a run is late: made more than lateAfterMs after it fell due (its fire time, or the time
 * its retry was planned for), both in the schedule's time. A time the test clock jumped over was
 * played, not late.
 */
export function isLate(dueAt: Date, moment: Pick<Moment, 'now' | 'playedUntil'>, lateAfterMs: number): boolean {
  if (moment.playedUntil && dueAt <= moment.playedUntil) return false;
  return moment.now.getTime() - dueAt.getTime() > lateAfterMs;
}

/** Most fire times counted by passedOverFireTimes: bounds the work after a long outage of a schedule firing every second. */
export const PASSED_OVER_COUNT_MAX = 10_000;

/**
 * How many fire times after `fireAt` nextFireTime passed over on its way to `next`: missed while
 * the gateway was down and never made. 0 when next is the fire time that follows (the usual case).
 */
export function passedOverFireTimes(times: FireTimes, window: ScheduleWindow, fireAt: Date, next: Date | undefined, now: Date, limit = PASSED_OVER_COUNT_MAX): number {
  let count = 0;
  for (let at = times.after(fireAt); at && (!next || at < next) && at <= now && within(window, at) && count < limit; at = times.after(at)) count += 1;
  return count;
}

/** Whether a due fire time is made or, under the skip policy, passed over. */
export function shouldRun(fireAt: Date, moment: Moment, policy: CatchUpPolicy): boolean {
  return policy === 'once' || !isMissed(fireAt, moment);
}

/**
 * The fire time after `fireAt`. Fire times missed while the gateway was down are never made one
 * by one: when the next one is missed too, the schedule goes on with the first fire time after
 * now (so a catch-up happens once). A fire time only a little late (within missedAfterMs, e.g.
 * under load) is still made.
 */
export function nextFireTime(times: FireTimes, window: ScheduleWindow, fireAt: Date, moment: Moment): Date | undefined {
  const candidate = times.after(fireAt);
  if (!candidate || !isMissed(candidate, moment)) return within(window, candidate);
  return within(window, times.after(moment.now));
}

/** What a declined run's result says about trying again. */
export interface RetryAdvice {
  readonly retry: boolean;
  readonly reason: string;
}

// Merchant advice codes (Mastercard's, passed on by acquirers): 01 update the account data first,
// 03 and 21 never try again (21: the cardholder cancelled the recurring payment), 02 and 04 later.
const ADVICE_NEVER = new Set(['01', '03', '21']);
const ADVICE_LATER = new Set(['02', '04']);
// Declines a later attempt can overturn: funds, limits, the issuer's unexplained refusals, technical trouble.
const SOFT_DECLINES = [/^800\.100\.(100|152|162|203)$/, /^800\.120\./, /^800\.800\./, /^900\./];

export function retryAdvice(code: string, merchantAdviceCode: string | undefined): RetryAdvice {
  if (merchantAdviceCode && ADVICE_NEVER.has(merchantAdviceCode)) return { retry: false, reason: `merchant advice code ${merchantAdviceCode}` };
  if (merchantAdviceCode && ADVICE_LATER.has(merchantAdviceCode)) return { retry: true, reason: `merchant advice code ${merchantAdviceCode}` };
  return SOFT_DECLINES.some((re) => re.test(code)) ? { retry: true, reason: 'soft decline' } : { retry: false, reason: 'hard decline' };
}

/**
 * When attempt `attempt` (0 = the run itself) is retried: after the attempt-th delay, and only
 * while that is before the next fire time (which then takes over). Undefined: no more retries.
 */
export function retryTime(now: Date, attempt: number, delaysMs: readonly number[], nextFireAt: Date | undefined): Date | undefined {
  const delay = delaysMs[attempt];
  if (delay === undefined) return undefined;
  const at = new Date(now.getTime() + delay);
  return nextFireAt && at >= nextFireAt ? undefined : at;
}
