import type { FireTimes } from './cron.js';

/**
 * The next `count` fire times of a schedule from the firing it waits for (`fireAt`, itself the
 * first), none after its end: what the console shows as "next fire times". The same fire-time
 * source the runner plans with (cron.ts over croner), so the page and the jobs cannot disagree.
 */
export function upcomingFireTimes(times: FireTimes, fireAt: Date, endsAt: Date | null, count: number): Date[] {
  const upcoming: Date[] = [];
  for (let at: Date | undefined = fireAt; at && upcoming.length < count; at = times.after(at)) {
    if (endsAt && at > endsAt) break;
    upcoming.push(at);
  }
  return upcoming;
}
