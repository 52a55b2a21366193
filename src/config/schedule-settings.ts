import type { CatchUpPolicy } from '../domain/schedules/plan.js';
import { isKnownTimeZone } from '../domain/schedules/cron.js';
import { readEnum, readInteger, readOptional, type Env } from './env-readers.js';

/** How schedules run: their default time zone, what a missed fire time becomes, and retries of declined runs. */
export interface ScheduleSettings {
  /** The time zone of a schedule that names none (job.timeZone). */
  readonly defaultTimeZone: string;
  /** once: a fire time missed while the gateway was down is made once when it is back; skip: it is not made. */
  readonly catchUp: CatchUpPolicy;
  /** A fire time counts as missed when the schedule's clock is this far past it. */
  readonly missedAfterMs: number;
  /** Waits before the retries of a soft-declined run; their number is the retry limit. */
  readonly retryDelaysMs: readonly number[];
  /** A run made more than this after it fell due counts as late (gateway_schedule_runs_total{timeliness="late"}). */
  readonly lateAfterMs: number;
}

export const SCHEDULE_VARIABLES = [
  ['SCHEDULE_TIME_ZONE', 'UTC', 'IANA time zone of schedules that name none in job.timeZone.'],
  ['SCHEDULE_CATCH_UP', 'once', '`once`: a run that fell due while the gateway was down is made once when it is back (never once per missed fire time); `skip`: it is not made, the schedule goes on with its next fire time.'],
  ['SCHEDULE_MISSED_AFTER_MS', '300000', 'A fire time the runner reaches later than this counts as missed (SCHEDULE_CATCH_UP decides).'],
  ['SCHEDULE_LATE_SECONDS', '60', 'A run made more than this many seconds after its fire time (or its retry\'s time) counts as late in the metrics (`gateway_schedule_runs_total{timeliness="late"}`); it is still made.'],
  ['SCHEDULE_RETRY_DELAYS_MINUTES', '1440,2880,4320', 'Minutes before each retry of a run declined with a soft decline (insufficient funds, limits, technical); their number is the retry limit; a retry is dropped when the next fire time comes first. `none`: no retries.'],
] as const;

const DEFAULT_RETRY_MINUTES = [1440, 2880, 4320];

function readRetryDelays(env: Env, problems: string[]): readonly number[] {
  const raw = readOptional(env, 'SCHEDULE_RETRY_DELAYS_MINUTES');
  if (raw === undefined) return DEFAULT_RETRY_MINUTES.map((m) => m * 60_000);
  if (raw === 'none') return [];
  const parts = raw.split(',').map((p) => p.trim());
  // Fractions of a minute are for tests.
  if (parts.length > 10 || !parts.every((p) => /^[0-9]{1,6}(\.[0-9]{1,3})?$/.test(p) && Number(p) > 0)) {
    problems.push(`SCHEDULE_RETRY_DELAYS_MINUTES=${JSON.stringify(raw)} must be \`none\` or 1 to 10 comma-separated positive numbers of minutes`);
    return [];
  }
  return parts.map((p) => Math.round(Number(p) * 60_000));
}

export function collectScheduleSettings(env: Env, problems: string[]): ScheduleSettings {
  const defaultTimeZone = readOptional(env, 'SCHEDULE_TIME_ZONE') ?? 'UTC';
  if (!isKnownTimeZone(defaultTimeZone)) problems.push(`SCHEDULE_TIME_ZONE=${JSON.stringify(defaultTimeZone)} is not a known IANA time zone`);
  return Object.freeze({
    defaultTimeZone,
    catchUp: readEnum<CatchUpPolicy>(env, 'SCHEDULE_CATCH_UP', ['once', 'skip'], 'once', problems),
    missedAfterMs: readInteger(env, 'SCHEDULE_MISSED_AFTER_MS', 300_000, 1_000, 31_536_000_000, problems),
    retryDelaysMs: Object.freeze(readRetryDelays(env, problems)),
    lateAfterMs: readInteger(env, 'SCHEDULE_LATE_SECONDS', 60, 1, 86_400, problems) * 1000,
  });
}
