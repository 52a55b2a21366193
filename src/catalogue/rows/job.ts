import { defineRows } from '../define.js';
import { digits, oneOf, pattern, text } from '../formats.js';
import { cronField, dateTime } from '../formats-time.js';
import { optional, required } from '../use.js';
import type { ParameterRow } from '../types.js';
import { isKnownTimeZone } from '../../domain/schedules/cron.js';

/** Core: scheduling jobs for subscription payments, and the registration a schedule charges. */

const UNITS = ['YEAR', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND'] as const;
const MINUTE_OR_SECOND = '[0-5]?[0-9]';

const schedule = defineRows({ section: 'Scheduling', use: required(['schedule']), echo: false }, [
  ['registrationId', pattern('^[a-zA-Z0-9]{32}$', { notation: '32 characters a-z A-Z 0-9', min: 32, max: 32, sample: '8a82944a4cc25ebf014cc2c782423202', bad: '8a82944a-4cc2-5ebf' }), {
    code: '100.150.101',
    missingCode: '100.150.100',
    description: 'The stored payment data each run charges.',
  }],
]);

const job = defineRows({ section: 'Scheduling', use: optional(['schedule']), code: '100.250.120' }, [
  ['job.name', text(64), { sample: 'monthly subscription' }],
  ['job.year', cronField({ notation: '1970-2099 with , - * /', number: '19[7-9][0-9]|20[0-9]{2}', specials: ',-*/', sample: '*', badSample: '1969' })],
  ['job.month', cronField({ notation: '1-12 with , - * /', number: '0?[1-9]|1[0-2]', specials: ',-*/', sample: '1-12', badSample: '13' }), { code: '100.250.124' }],
  ['job.dayOfMonth', cronField({ notation: '1-31 with , - * ? / L W', number: '0?[1-9]|[12][0-9]|3[01]', specials: ',-*?/LW', sample: '1', badSample: '32' }), { code: '100.250.123' }],
  ['job.dayOfWeek', cronField({ notation: '1-7 or SUN-SAT with , - * ? / L #', number: '[1-7]|SUN|MON|TUE|WED|THU|FRI|SAT', specials: ',-*?/L#', sample: '?', badSample: '8' }), { code: '100.250.125' }],
  ['job.hour', cronField({ notation: '0-23 with , - * /', number: '[01]?[0-9]|2[0-3]', specials: ',-*/', sample: '10', badSample: '24' }), { code: '100.250.121' }],
  ['job.minute', pattern(`^${MINUTE_OR_SECOND}$`, { notation: '0-59', min: 1, max: 2, sample: '30', bad: '60' }), { code: '100.250.122' }],
  ['job.second', cronField({ notation: '0-59 with , - * /', number: MINUTE_OR_SECOND, specials: ',-*/', sample: '0', badSample: '60' }), { code: '100.250.122' }],
  ['job.startDate', dateTime('2034-06-01 00:00:00')],
  ['job.endDate', dateTime('2035-06-01 00:00:00')],
  ['job.noticeUnit', oneOf(UNITS), { code: '100.250.107', description: 'The cancellation notice, with job.noticeNumber: a DS takes effect only as the notice allows (docs/schedules.md "Notice").' }],
  ['job.noticeNumber', digits(16), { description: 'How many job.noticeUnit the notice is; required with job.noticeUnit.' }],
  ['job.noticeCallable', oneOf(['ANYTIME', 'DURATION_END']), { description: 'When a cancellation may take effect: ANYTIME once the notice has passed; DURATION_END (the default) at the end of a job period.' }],
  ['job.durationUnit', oneOf(UNITS), { code: '100.250.106' }],
  ['job.durationNumber', digits(16)],
  // Seven space-separated fields, the year may be left out; each field is checked by the scheduler.
  ['job.expression', pattern('^[^ ]+( [^ ]+){5,6}$', { notation: 'AN256, cron expression of 6 or 7 fields', min: 11, max: 256, sample: '0 30 10 1 * ? *', bad: '0 30 10 1 *' })],
  // Beyond the specification: the time zone the fields are read in (docs/schedules.md).
  ['job.timeZone', pattern('^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+){0,2}$', {
    notation: 'IANA time zone name (gateway extension)',
    min: 1,
    max: 64,
    sample: 'Europe/Berlin',
    bad: 'Mars/Olympus Mons',
    semantic: { test: isKnownTimeZone, message: 'must be a time zone of the IANA database, e.g. Europe/Berlin or UTC' },
  }), { description: 'Gateway extension: the time zone the job fields and job.expression are read in; SCHEDULE_TIME_ZONE (UTC) when absent. Daylight-saving changes: docs/schedules.md.' }],
]);

export const jobRows: readonly ParameterRow[] = [...schedule, ...job];
