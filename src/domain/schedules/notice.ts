import { addUnits, type TimeUnit } from './plan.js';

/**
 * The cancellation notice of a schedule (spec "Scheduling": "The notice parameters define the
 * cancellation notice period that must be respected to avoid a prolongation; the duration
 * parameters define the job period"). Pure rules; the moment of the cancellation is passed in.
 *
 * - Without notice (no job.noticeUnit / job.noticeNumber) nothing changes: a duration ends the
 *   schedule, a deschedule (DS) ends it at once.
 * - With notice, the duration is a period that is prolonged, period after period, until a DS
 *   given in time ends it; the DS is the cancellation and takes effect:
 *   - DURATION_END (the default): at the end of the first period that ends at least the notice
 *     after the DS (a DS given too late prolongs the schedule by one more period);
 *   - ANYTIME, or a schedule without a duration: the notice after the DS.
 */

export type NoticeCallable = 'ANYTIME' | 'DURATION_END';

export interface NoticeTerms {
  readonly unit: TimeUnit;
  readonly count: number;
  readonly callable: NoticeCallable;
}

/** The job period: `count` units, counted from `from` (job.startDate, else the schedule's creation). */
export interface JobPeriod {
  readonly from: Date;
  readonly unit: TimeUnit;
  readonly count: number;
}

/** What a job's notice fields say, or why they cannot be read together. */
export type NoticeReading = { readonly terms: NoticeTerms | undefined } | { readonly problem: { readonly name: string; readonly message: string } };

/** The job.* fields (without the prefix) as the merchant sent them. */
export function readNoticeTerms(job: Readonly<Record<string, string | undefined>>): NoticeReading {
  const { noticeUnit, noticeNumber, noticeCallable } = job;
  if (noticeUnit === undefined && noticeNumber === undefined) {
    if (noticeCallable !== undefined) return { problem: { name: 'job.noticeCallable', message: 'needs job.noticeUnit and job.noticeNumber: the notice it applies to' } };
    return { terms: undefined };
  }
  if (noticeUnit === undefined) return { problem: { name: 'job.noticeUnit', message: 'is required with job.noticeNumber (the notice is job.noticeNumber units of job.noticeUnit)' } };
  if (noticeNumber === undefined) return { problem: { name: 'job.noticeNumber', message: 'is required with job.noticeUnit (the notice is job.noticeNumber units of job.noticeUnit)' } };
  return { terms: { unit: noticeUnit as TimeUnit, count: Number(noticeNumber), callable: noticeCallable === 'ANYTIME' ? 'ANYTIME' : 'DURATION_END' } };
}

/** The job period of a schedule with notice: its duration, or undefined without one. */
export function jobPeriodOf(job: Readonly<Record<string, string | undefined>>, from: Date): JobPeriod | undefined {
  if (job.durationUnit === undefined || job.durationNumber === undefined) return undefined;
  const count = Number(job.durationNumber);
  return count > 0 ? { from, unit: job.durationUnit as TimeUnit, count } : undefined;
}

/** Beyond any fire time (year 2099): a cancellation that would take effect later never does. */
const FAR_FUTURE_MS = Date.UTC(2100, 0, 1);
/** Periods looked at one by one from the first estimate; more is a duration of seconds over decades. */
const PERIOD_STEPS_MAX = 100_000;

/** A unit's length: exact for WEEK and shorter, the longest month and year for the others (an estimate that never overshoots). */
const APPROXIMATE_UNIT_MS: Readonly<Record<TimeUnit, number>> = {
  YEAR: 366 * 86_400_000, MONTH: 31 * 86_400_000, WEEK: 604_800_000, DAY: 86_400_000, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1_000,
};

/** The end of the index-th period (1: the first). Weeks and shorter by their length, months and years by the calendar. */
function periodEnd(period: JobPeriod, index: number): Date {
  if (period.unit === 'YEAR' || period.unit === 'MONTH') return addUnits(period.from, period.unit, period.count * index);
  return new Date(Math.min(period.from.getTime() + APPROXIMATE_UNIT_MS[period.unit] * period.count * index, FAR_FUTURE_MS));
}

/** The end of the first period that ends at or after `deadline`. */
export function periodEndAtOrAfter(period: JobPeriod, deadline: Date): Date {
  const periodMs = APPROXIMATE_UNIT_MS[period.unit] * period.count;
  // Start a little before the first period that can qualify (the estimate uses the longest unit), then step.
  let index = Math.max(1, Math.floor((deadline.getTime() - period.from.getTime()) / periodMs));
  for (let step = 0; step < PERIOD_STEPS_MAX; step += 1, index += 1) {
    const end = periodEnd(period, index);
    if (end >= deadline || end.getTime() >= FAR_FUTURE_MS) return end;
  }
  return new Date(FAR_FUTURE_MS);
}

/**
 * When a cancellation given at `requestedAt` (the schedule's own time) takes effect: no run is
 * made at or after this instant. The notice is respected when requestedAt + notice is not after
 * the period's end.
 */
export function cancellationTakesEffectAt(terms: NoticeTerms, period: JobPeriod | undefined, requestedAt: Date): Date {
  const deadline = addUnits(requestedAt, terms.unit, terms.count);
  if (terms.callable === 'ANYTIME' || !period) return deadline;
  return periodEndAtOrAfter(period, deadline);
}
