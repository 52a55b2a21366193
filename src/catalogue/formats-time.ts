import { makeFormat } from './formats.js';
import { toTypedValue } from './values.js';
import type { FieldFormat } from './types.js';

/** Dates and times of the wire format, and the cron-like fields of scheduling jobs. */

const DATE = '[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])';
const TIME = '([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]';
const OFFSET = '[+-](0[0-9]|1[0-4])[0-5][0-9]';

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The regex admits 2023-02-31 and year 0000; the calendar does not (there is no year 0, and
 * PostgreSQL refuses it). Reads the leading yyyy-MM-dd.
 */
export function isCalendarDate(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  return year >= 1 && day >= 1 && day <= daysInMonth(year, month);
}

const CALENDAR = { test: isCalendarDate, message: 'must be a valid calendar date, years 0001 to 9999' } as const;

/** The instants both databases store and the wire format writes back: years 0001 to 9999 in UTC. */
// setUTCFullYear, unlike Date.UTC, keeps year 1 as it is.
const EARLIEST_MS = new Date(0).setUTCFullYear(1, 0, 1);
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/** An offset can move 0001-01-01 00:00:00+0100 into year 0, or 9999-12-31 … -0100 into 10000. */
function isStorableTimestamp(value: string): boolean {
  if (!isCalendarDate(value)) return false;
  const instant = (toTypedValue('timestamp', value) as Date).getTime();
  return instant >= EARLIEST_MS && instant <= LATEST_MS;
}

const STORABLE_TIMESTAMP = { test: isStorableTimestamp, message: 'must be a valid calendar date and time between 0001-01-01 and 9999-12-31 in UTC' } as const;

/** yyyy-MM-dd; `years19or20` for birth dates, which the spec bounds to 19xx and 20xx. */
export function date(options: { sample?: string; years19or20?: boolean } = {}): FieldFormat {
  // DATE.slice(8) drops the leading [0-9]{4}, so the birth-date form can bound the century.
  const pattern = options.years19or20 ? `^(19|20)[0-9]{2}${DATE.slice(8)}$` : `^${DATE}$`;
  return makeFormat({
    notation: options.years19or20 ? 'yyyy-MM-dd, years 19xx or 20xx' : 'yyyy-MM-dd',
    pattern,
    minLength: 10,
    maxLength: 10,
    kind: 'date',
    semantic: CALENDAR,
    sample: options.sample ?? '2034-05-17',
    badSample: options.years19or20 ? '1870-02-17' : '17.05.2034',
  });
}

/** yyyy-MM-dd HH:mm:ss, read as UTC. */
export function dateTime(sample = '2034-05-17 10:00:00'): FieldFormat {
  return makeFormat({
    notation: 'yyyy-MM-dd HH:mm:ss',
    pattern: `^${DATE} ${TIME}$`,
    minLength: 19,
    maxLength: 19,
    kind: 'dateTime',
    semantic: CALENDAR,
    sample,
    badSample: '2034-05-17T10:00:00',
  });
}

/** yyyy-MM-dd HH:mm:ss+0000, the offset form of the recurring migration. */
export function timestamp(): FieldFormat {
  return makeFormat({
    notation: 'yyyy-MM-dd HH:mm:ss+0000',
    pattern: `^${DATE} ${TIME}${OFFSET}$`,
    minLength: 24,
    maxLength: 24,
    kind: 'timestamp',
    semantic: STORABLE_TIMESTAMP,
    sample: '2024-05-17 10:00:00+0000',
    badSample: '2024-05-17 10:00:00',
  });
}

interface CronFieldSpec {
  readonly notation: string;
  /** Alternatives of one number of the field, e.g. '[0-9]|1[0-9]|2[0-3]'. */
  readonly number: string;
  /** Which of , - * / ? L W # the field admits, as the spec lists them. */
  readonly specials: string;
  readonly sample: string;
  readonly badSample: string;
}

/** One field of a job's cron plan: a comma list of values, ranges, steps and the field's specials. */
export function cronField(spec: CronFieldSpec): FieldFormat {
  const has = (special: string) => spec.specials.includes(special);
  const value = `(?:${spec.number})`;
  const step = has('/') ? '(?:/[0-9]{1,4})?' : '';
  const items = [`${value}${has('-') ? `(?:-${value})?` : ''}${step}`];
  if (has('*')) items.push(`\\*${step}`);
  if (has('L')) items.push(has('W') ? 'LW?' : `${value}?L`);
  if (has('W')) items.push(`${value}W`);
  if (has('#')) items.push(`${value}#[1-5]`);
  const item = `(?:${items.join('|')})`;
  const list = has(',') ? `${item}(?:,${item})*` : item;
  return makeFormat({
    notation: spec.notation,
    pattern: has('?') ? `^(?:\\?|${list})$` : `^${list}$`,
    minLength: 1,
    maxLength: 64,
    sample: spec.sample,
    badSample: spec.badSample,
  });
}
