import { CATALOGUE } from '../../catalogue/index.js';
import type { Job } from '../../catalogue/request-types.generated.js';
import { CRON_FIELDS, dayFieldsProblem, fieldsOfJob, fireTimes, quartzExpression, splitExpression, yearProblem, type CronField, type CronFields, type FireTimes } from '../../domain/schedules/cron.js';
import { readNoticeTerms, type NoticeTerms } from '../../domain/schedules/notice.js';
import { firstFireTime, scheduleWindow, type ScheduleWindow, type TimeUnit } from '../../domain/schedules/plan.js';
import { CARD_NUMBER_CODE, CARD_NUMBER_MESSAGE } from '../../catalogue/card-number-fields.js';
import { displayRowValue } from '../../catalogue/mask.js';
import { containsCardNumber } from '../../domain/card-numbers-in-text.js';
import { GatewayError } from '../../results/gateway-error.js';

/** A schedule's plan, decided from the job.* fields of a request. */
export interface SchedulePlan {
  readonly fields: CronFields;
  readonly expression: string;
  readonly timeZone: string;
  readonly window: ScheduleWindow;
  readonly times: FireTimes;
  readonly firstFireAt: Date;
  /** The cancellation notice (docs/schedules.md "Notice"); undefined: a DS ends the schedule at once. */
  readonly notice: NoticeTerms | undefined;
}

const MISSING_EXPRESSION_FIELDS = '100.250.111';
const BAD_COMBINATION = '100.250.120';

// Each field of job.expression obeys the grammar of its job.* parameter (the minute as the
// second: Quartz allows , - * / there, where job.minute takes a number only).
const GRAMMAR_OF: Readonly<Record<CronField, string>> = {
  second: 'job.second',
  minute: 'job.second',
  hour: 'job.hour',
  dayOfMonth: 'job.dayOfMonth',
  month: 'job.month',
  dayOfWeek: 'job.dayOfWeek',
  year: 'job.year',
};
const FIELD_NAMES: Readonly<Record<CronField, string>> = { second: 'second', minute: 'minute', hour: 'hour', dayOfMonth: 'day of month', month: 'month', dayOfWeek: 'day of week', year: 'year' };

function rowOf(name: string) {
  return CATALOGUE.find((row) => row.name === name)!;
}

/**
 * Values echoed in errors are masked as the catalogue masks them: job.expression is exempt from the
 * catalogue's card-number check (card-number-fields.ts), so a refused one may still hold digit runs.
 */
const shownValue = (value: string) => displayRowValue(rowOf('job.expression'), value);

const refuse = (code: string, name: string, value: string, message: string) => new GatewayError(code, { parameterErrors: [{ name, value: shownValue(value), message }] });

/** The fields of job.expression, each checked; the first bad field decides the code, every bad field is named. */
function expressionFields(expression: string): CronFields {
  const fields = splitExpression(expression);
  if (!fields) throw refuse(MISSING_EXPRESSION_FIELDS, 'job.expression', expression, 'must have 7 fields (second minute hour dayOfMonth month dayOfWeek year), the year may be left out');
  // Each field on its own: read together, the fields of a one-time schedule can look like a card number.
  if (CRON_FIELDS.some((field) => containsCardNumber(fields[field]))) throw refuse(CARD_NUMBER_CODE, 'job.expression', expression, CARD_NUMBER_MESSAGE);
  const problems = CRON_FIELDS.flatMap((field) => {
    const row = rowOf(GRAMMAR_OF[field]);
    const value = fields[field];
    return row.format.regex.test(value) ? [] : [{ code: row.code, message: `${FIELD_NAMES[field]} field ${JSON.stringify(shownValue(value))} must be ${row.format.notation}` }];
  });
  if (problems.length > 0) {
    throw new GatewayError(problems[0]!.code, { parameterErrors: problems.map((p) => ({ name: 'job.expression', value: shownValue(expression), message: p.message })) });
  }
  return fields;
}

function checkedFields(job: Job | undefined): { fields: CronFields; source: string } {
  if (job?.expression !== undefined) return { fields: expressionFields(job.expression), source: 'job.expression' };
  return { fields: fieldsOfJob(job ?? {}), source: 'job.dayOfWeek' };
}

/**
 * The duration as the window's end. With a notice the duration is a period that is prolonged
 * until a cancellation given in time ends it, so it ends nothing by itself.
 */
function durationOf(job: Job | undefined, notice: NoticeTerms | undefined): { durationUnit?: TimeUnit; durationNumber?: number } {
  if (notice || !job?.durationUnit || job.durationNumber === undefined) return {};
  return { durationUnit: job.durationUnit, durationNumber: Number(job.durationNumber) };
}

/**
 * Reads the job.* fields: job.expression overrides the single fields; both day fields set is
 * refused (100.250.120); the window comes from startDate, endDate and the duration; a plan that
 * never fires inside its window is refused too.
 */
export function planOfJob(job: Job | undefined, now: Date, defaultTimeZone: string): SchedulePlan {
  const { fields, source } = checkedFields(job);
  const expression = quartzExpression(fields);
  const shown = source === 'job.expression' ? job!.expression! : (job?.dayOfWeek ?? '');
  const dayProblem = dayFieldsProblem(fields);
  if (dayProblem) throw refuse(BAD_COMBINATION, source, shown, dayProblem);
  const yearIssue = yearProblem(fields.year);
  if (yearIssue) throw refuse(BAD_COMBINATION, source === 'job.expression' ? source : 'job.year', source === 'job.expression' ? shown : fields.year, yearIssue);
  const timeZone = job?.timeZone ?? defaultTimeZone;
  let times: FireTimes;
  try {
    times = fireTimes(fields, timeZone);
  } catch (error) {
    throw refuse(BAD_COMBINATION, source, source === 'job.expression' ? shown : expression, `is not a valid schedule: ${(error as Error).message}`);
  }
  if (job?.startDate && job.endDate && job.endDate <= job.startDate) throw refuse(BAD_COMBINATION, 'job.endDate', '', 'must be after job.startDate');
  const notice = noticeOf(job);
  const window = scheduleWindow({ createdAt: now, startDate: job?.startDate, endDate: job?.endDate, ...durationOf(job, notice) });
  const firstFireAt = firstFireTime(times, window);
  if (!firstFireAt) throw refuse(BAD_COMBINATION, source === 'job.expression' ? source : 'job.endDate', source === 'job.expression' ? shown : '', 'the schedule would never run: no fire time between its start and its end');
  return { fields, expression, timeZone, window, times, firstFireAt, notice };
}

/** The notice terms; a notice unit without its number (or the reverse) is refused, naming the missing field. */
function noticeOf(job: Job | undefined): NoticeTerms | undefined {
  const reading = readNoticeTerms({ noticeUnit: job?.noticeUnit, noticeNumber: job?.noticeNumber, noticeCallable: job?.noticeCallable });
  if ('terms' in reading) return reading.terms;
  const code = reading.problem.name === 'job.noticeUnit' ? '100.250.107' : BAD_COMBINATION;
  throw refuse(code, reading.problem.name, '', reading.problem.message);
}

/** The job.* fields as sent, kept with the schedule and shown back (notice rules included). */
export function jobFieldsAsSent(wire: Readonly<Record<string, string>>): Record<string, string> {
  const job: Record<string, string> = {};
  for (const [name, value] of Object.entries(wire)) if (name.startsWith('job.')) job[name.slice(4)] = value;
  return job;
}
