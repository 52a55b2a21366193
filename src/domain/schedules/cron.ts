import { Cron } from 'croner';

/**
 * The cron meaning of the specification: Quartz's seven fields (second minute hour dayOfMonth
 * month dayOfWeek [year]), day of week 1 = Sunday … 7 = Saturday, `? L W #`. The arithmetic is
 * croner's (Quartz weekday numbering, seconds and year fields, L W #, time zones); this module
 * writes each Quartz form the way croner reads it and keeps Quartz's rules croner does not have.
 */

export const CRON_FIELDS = ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek', 'year'] as const;
export type CronField = (typeof CRON_FIELDS)[number];
export type CronFields = Readonly<Record<CronField, string>>;

/** The highest value of each field: Quartz's `n/step` runs from n to here. */
const FIELD_MAX: Readonly<Record<CronField, number>> = { second: 59, minute: 59, hour: 23, dayOfMonth: 31, month: 12, dayOfWeek: 7, year: 2099 };

/** The specification's defaults: every year, January, the 1st, midnight (so: yearly on 1 January). */
export const JOB_DEFAULTS: CronFields = { second: '0', minute: '0', hour: '0', dayOfMonth: '1', month: '1', dayOfWeek: '?', year: '*' };

/** The seven fields of an expression; a 6-field expression gets year `*`. Undefined: not 6 or 7 fields. */
export function splitExpression(expression: string): CronFields | undefined {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 6 && parts.length !== 7) return undefined;
  const [second, minute, hour, dayOfMonth, month, dayOfWeek, year = '*'] = parts as [string, string, string, string, string, string, string?];
  return { second, minute, hour, dayOfMonth, month, dayOfWeek, year };
}

/**
 * The fields of job.* with the specification's defaults. Only one of the day fields may be set;
 * the other one is `?` (when neither is sent, the default day of month 1 applies).
 */
export function fieldsOfJob(job: Partial<Record<CronField, string>>): CronFields {
  const dayOfWeekSent = job.dayOfWeek !== undefined && job.dayOfWeek !== '?';
  const dayOfMonth = job.dayOfMonth ?? (dayOfWeekSent ? '?' : JOB_DEFAULTS.dayOfMonth);
  const dayOfWeek = job.dayOfWeek ?? (dayOfMonth === '?' ? '1' : '?');
  return {
    second: job.second ?? JOB_DEFAULTS.second,
    minute: job.minute ?? JOB_DEFAULTS.minute,
    hour: job.hour ?? JOB_DEFAULTS.hour,
    dayOfMonth,
    month: job.month ?? JOB_DEFAULTS.month,
    dayOfWeek,
    year: job.year ?? JOB_DEFAULTS.year,
  };
}

/** Quartz's rule: exactly one of the day fields is `?`. Answers what is wrong, or undefined. */
export function dayFieldsProblem(fields: CronFields): string | undefined {
  const monthQ = fields.dayOfMonth === '?';
  const weekQ = fields.dayOfWeek === '?';
  if (monthQ && weekQ) return 'only one of day of month and day of week may be ?';
  if (!monthQ && !weekQ) return 'day of month and day of week cannot both be set: one of them must be ?';
  return undefined;
}

/** Years outside 1970-2099 in a year field (the steps after `/` are counts, not years). */
export function yearProblem(year: string): string | undefined {
  const years = year.replace(/\/[0-9]+/g, '').match(/[0-9]+/g) ?? [];
  return years.some((n) => Number(n) < 1970 || Number(n) > 2099) ? 'years must be between 1970 and 2099' : undefined;
}

/** Quartz `n/step` means "from n to the field's end"; croner wants that range written out. */
function translateField(field: CronField, value: string): string {
  return value
    .split(',')
    .map((item) => item.replace(/^([0-9]+|[A-Z]{3})\/([0-9]+)$/, (_all, start: string, step: string) => `${start}-${FIELD_MAX[field]}/${step}`))
    .join(',');
}

/** The expression in Quartz form, seven fields, as stored and shown. */
export function quartzExpression(fields: CronFields): string {
  return CRON_FIELDS.map((name) => fields[name]).join(' ');
}

/** The same expression in croner's dialect. */
export function cronerPattern(fields: CronFields): string {
  return CRON_FIELDS.map((name) => translateField(name, fields[name])).join(' ');
}

export interface FireTimes {
  /** The first fire time strictly after `after`, or undefined when the expression has no more. */
  after(after: Date): Date | undefined;
}

/**
 * The fire times of a Quartz expression in a time zone (IANA name). Across daylight-saving
 * changes croner does what Vixie cron does: a wall time the spring change skips fires once, at
 * the first instant after the gap; a wall time the autumn change repeats fires once, the first time.
 * Throws when croner cannot read the pattern.
 */
export function fireTimes(fields: CronFields, timeZone: string): FireTimes {
  const key = `${timeZone} ${cronerPattern(fields)}`;
  let times = KNOWN_FIRE_TIMES.get(key);
  if (!times) {
    if (KNOWN_FIRE_TIMES.size >= KNOWN_FIRE_TIMES_MAX) KNOWN_FIRE_TIMES.clear();
    times = newFireTimes(key.slice(timeZone.length + 1), timeZone);
    KNOWN_FIRE_TIMES.set(key, times);
  }
  return times;
}

/**
 * Fire times already read, by time zone and pattern: a second of 2,000 due runs of one plan
 * parsed its expression 2,000 times (a profile of issue 36 found croner a seventh of a run's
 * CPU). Bounded: a gateway with more distinct plans than this starts again from none.
 */
const KNOWN_FIRE_TIMES = new Map<string, FireTimes>();
const KNOWN_FIRE_TIMES_MAX = 10_000;

function newFireTimes(pattern: string, timeZone: string): FireTimes {
  const cron = new Cron(pattern, { timezone: timeZone, alternativeWeekdays: true, mode: '7-part', paused: true });
  // The last question answered: a run asks the fire time after its own twice (the next one, and
  // how many were passed over on the way), and for a yearly plan each answer walks a year.
  let last: { readonly after: number; readonly next: Date | undefined } | undefined;
  return {
    after(after: Date): Date | undefined {
      if (last?.after === after.getTime()) return last.next && new Date(last.next);
      const next = cron.nextRun(after) ?? undefined;
      last = { after: after.getTime(), next };
      return next && new Date(next);
    },
  };
}

/** Whether the runtime knows the IANA time zone. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}
