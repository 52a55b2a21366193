import { cancellationTakesEffectAt, jobPeriodOf, readNoticeTerms } from '../../domain/schedules/notice.js';
import type { StoredSchedule } from '../../storage/repositories/schedules.js';
import { scheduleNow } from './load-schedule.js';

/** job.startDate as sent (yyyy-MM-dd HH:mm:ss, UTC), the start the duration's periods count from. */
function sentStartDate(job: Readonly<Record<string, string>>): Date | undefined {
  const sent = job['startDate'];
  const at = sent ? new Date(`${sent.replace(' ', 'T')}Z`) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
}

/**
 * The last instant (the schedule's own time) a run may be made when a DS given at `realNow`
 * is a cancellation under the schedule's notice; undefined when the schedule has no notice
 * (the DS ends it at once). Never later than the schedule's own end.
 */
export function lastRunUnderNotice(schedule: StoredSchedule, realNow: Date): Date | undefined {
  const reading = readNoticeTerms(schedule.job);
  if (!('terms' in reading) || !reading.terms) return undefined;
  const period = jobPeriodOf(schedule.job, sentStartDate(schedule.job) ?? schedule.startsAt);
  const takesEffectAt = cancellationTakesEffectAt(reading.terms, period, scheduleNow(realNow, schedule));
  // A run at the very instant the cancellation takes effect belongs to the period it cancelled.
  const lastRunAt = new Date(takesEffectAt.getTime() - 1);
  return schedule.endsAt && schedule.endsAt < lastRunAt ? schedule.endsAt : lastRunAt;
}
