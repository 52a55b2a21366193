import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cronerPattern, dayFieldsProblem, fieldsOfJob, fireTimes, splitExpression, yearProblem } from '../../../src/domain/schedules/cron.js';

/**
 * Quartz expressions and their next five fire times, worked out by hand from the calendar (the
 * weekday of each date checked): leap years, month ends, L, W, #, 1 = Sunday, `n/step`, the year
 * field, and daylight-saving changes. The library (croner) must agree with every row.
 */
const TABLE: ReadonlyArray<readonly [expression: string, timeZone: string, after: string, fireTimes: readonly string[], why: string]> = [
  ['0 0 0 29 2 ? *', 'UTC', '2024-03-01T00:00:00Z', ['2028-02-29T00:00:00Z', '2032-02-29T00:00:00Z', '2036-02-29T00:00:00Z', '2040-02-29T00:00:00Z', '2044-02-29T00:00:00Z'], '29 February: leap years only'],
  ['0 0 12 L * ? *', 'UTC', '2027-12-15T00:00:00Z', ['2027-12-31T12:00:00Z', '2028-01-31T12:00:00Z', '2028-02-29T12:00:00Z', '2028-03-31T12:00:00Z', '2028-04-30T12:00:00Z'], 'L: the last day, 29 February in a leap year'],
  ['0 0 0 31 * ? *', 'UTC', '2027-01-01T00:00:00Z', ['2027-01-31T00:00:00Z', '2027-03-31T00:00:00Z', '2027-05-31T00:00:00Z', '2027-07-31T00:00:00Z', '2027-08-31T00:00:00Z'], 'the 31st: months without one are passed over'],
  ['0 0 9 LW * ? *', 'UTC', '2027-01-01T00:00:00Z', ['2027-01-29T09:00:00Z', '2027-02-26T09:00:00Z', '2027-03-31T09:00:00Z', '2027-04-30T09:00:00Z', '2027-05-31T09:00:00Z'], 'LW: the last weekday (31 Jan and 28 Feb 2027 are Sundays)'],
  ['0 0 9 15W * ? *', 'UTC', '2027-05-01T00:00:00Z', ['2027-05-14T09:00:00Z', '2027-06-15T09:00:00Z', '2027-07-15T09:00:00Z', '2027-08-16T09:00:00Z', '2027-09-15T09:00:00Z'], '15W: Saturday 15 May → Friday, Sunday 15 Aug → Monday'],
  ['0 0 9 1W * ? *', 'UTC', '2027-04-01T00:00:00Z', ['2027-04-01T09:00:00Z', '2027-05-03T09:00:00Z', '2027-06-01T09:00:00Z', '2027-07-01T09:00:00Z', '2027-08-02T09:00:00Z'], '1W never leaves its month: Saturday 1 May → Monday 3'],
  ['0 0 18 ? * 6L *', 'UTC', '2027-01-01T00:00:00Z', ['2027-01-29T18:00:00Z', '2027-02-26T18:00:00Z', '2027-03-26T18:00:00Z', '2027-04-30T18:00:00Z', '2027-05-28T18:00:00Z'], '6L: the last Friday (6 = Friday in Quartz)'],
  ['0 0 10 ? * 2#1 *', 'UTC', '2027-01-01T00:00:00Z', ['2027-01-04T10:00:00Z', '2027-02-01T10:00:00Z', '2027-03-01T10:00:00Z', '2027-04-05T10:00:00Z', '2027-05-03T10:00:00Z'], '2#1: the first Monday'],
  ['0 0 10 ? * MON#3 *', 'UTC', '2027-01-01T00:00:00Z', ['2027-01-18T10:00:00Z', '2027-02-15T10:00:00Z', '2027-03-15T10:00:00Z', '2027-04-19T10:00:00Z', '2027-05-17T10:00:00Z'], 'MON#3: the third Monday'],
  ['0 0 8 ? * 2-6 *', 'UTC', '2027-01-01T00:00:00Z', ['2027-01-01T08:00:00Z', '2027-01-04T08:00:00Z', '2027-01-05T08:00:00Z', '2027-01-06T08:00:00Z', '2027-01-07T08:00:00Z'], '2-6: Monday to Friday (1 January 2027 is a Friday)'],
  ['0 0 8 ? * 1,7 *', 'UTC', '2027-01-01T00:00:00Z', ['2027-01-02T08:00:00Z', '2027-01-03T08:00:00Z', '2027-01-09T08:00:00Z', '2027-01-10T08:00:00Z', '2027-01-16T08:00:00Z'], '1,7: Sunday and Saturday'],
  ['0/2 * * * * ? *', 'UTC', '2027-01-01T00:00:00Z', ['2027-01-01T00:00:02Z', '2027-01-01T00:00:04Z', '2027-01-01T00:00:06Z', '2027-01-01T00:00:08Z', '2027-01-01T00:00:10Z'], '0/2: every 2 seconds from 0'],
  ['15/20 * * * * ?', 'UTC', '2027-01-01T00:00:00Z', ['2027-01-01T00:00:15Z', '2027-01-01T00:00:35Z', '2027-01-01T00:00:55Z', '2027-01-01T00:01:15Z', '2027-01-01T00:01:35Z'], '15/20, six fields: the year left out'],
  ['0 0 0 1 1/3 ? *', 'UTC', '2027-01-01T00:00:00Z', ['2027-04-01T00:00:00Z', '2027-07-01T00:00:00Z', '2027-10-01T00:00:00Z', '2028-01-01T00:00:00Z', '2028-04-01T00:00:00Z'], 'quarterly; a fire time equal to `after` is not next'],
  ['0 30 10 1 * ? 2028', 'UTC', '2027-01-01T00:00:00Z', ['2028-01-01T10:30:00Z', '2028-02-01T10:30:00Z', '2028-03-01T10:30:00Z', '2028-04-01T10:30:00Z', '2028-05-01T10:30:00Z'], 'the year field'],
  ['0 0 0 1 1 ? 2027/2', 'UTC', '2027-06-01T00:00:00Z', ['2029-01-01T00:00:00Z', '2031-01-01T00:00:00Z', '2033-01-01T00:00:00Z', '2035-01-01T00:00:00Z', '2037-01-01T00:00:00Z'], 'every other year'],
  ['0 30 2 * * ? *', 'Europe/Berlin', '2027-03-26T00:00:00Z', ['2027-03-26T01:30:00Z', '2027-03-27T01:30:00Z', '2027-03-28T01:00:00Z', '2027-03-29T00:30:00Z', '2027-03-30T00:30:00Z'], 'spring forward: 02:30 does not exist on 28 March, the run is at 03:00 CEST, once'],
  ['0 30 2 * * ? *', 'Europe/Berlin', '2027-10-29T00:00:00Z', ['2027-10-29T00:30:00Z', '2027-10-30T00:30:00Z', '2027-10-31T00:30:00Z', '2027-11-01T01:30:00Z', '2027-11-02T01:30:00Z'], 'fall back: 02:30 comes twice on 31 October, the run is once (the first)'],
  ['0 0 0 1 * ? *', 'America/New_York', '2027-01-01T00:00:00Z', ['2027-01-01T05:00:00Z', '2027-02-01T05:00:00Z', '2027-03-01T05:00:00Z', '2027-04-01T04:00:00Z', '2027-05-01T04:00:00Z'], 'local midnight: 05:00 UTC in winter, 04:00 in summer'],
];

function nextFive(expression: string, timeZone: string, after: string): string[] {
  const times = fireTimes(splitExpression(expression)!, timeZone);
  const found: string[] = [];
  let at = new Date(after);
  for (let i = 0; i < 5; i += 1) {
    const next = times.after(at);
    if (!next) break;
    found.push(next.toISOString().replace('.000Z', 'Z'));
    at = next;
  }
  return found;
}

describe('Quartz cron: next five fire times', () => {
  for (const [expression, timeZone, after, expected, why] of TABLE) {
    it(`${expression} (${timeZone}): ${why}`, () => assert.deepEqual(nextFive(expression, timeZone, after), expected));
  }
});

describe('Quartz forms croner reads differently', () => {
  it('writes n/step out as a range to the field end', () => {
    assert.equal(cronerPattern(splitExpression('0/2 5/15 * ? * 2/2 2030/5')!), '0-59/2 5-59/15 * ? * 2-7/2 2030-2099/5');
  });
  it('keeps every other form as it is', () => {
    assert.equal(cronerPattern(splitExpression('0 0 12 LW * ? *')!), '0 0 12 LW * ? *');
    assert.equal(cronerPattern(splitExpression('0 0 12 ? * 6L,2#1 *')!), '0 0 12 ? * 6L,2#1 *');
  });
});

describe('job.* fields', () => {
  const cases: ReadonlyArray<readonly [Record<string, string>, string]> = [
    [{}, '0 0 0 1 1 ? *'],
    [{ dayOfWeek: '2' }, '0 0 0 ? 1 2 *'],
    [{ dayOfMonth: '15', month: '*' }, '0 0 0 15 * ? *'],
    [{ dayOfMonth: '?' }, '0 0 0 ? 1 1 *'],
    [{ second: '30', minute: '15', hour: '8', month: '*', dayOfWeek: 'MON-FRI', year: '2030' }, '30 15 8 ? * MON-FRI 2030'],
  ];
  for (const [job, expected] of cases) {
    it(`${JSON.stringify(job)} → ${expected}`, () => assert.equal(Object.values(fieldsOfJob(job)).join(' '), expected));
  }
  it('refuses both day fields set, and both ?', () => {
    assert.match(dayFieldsProblem(splitExpression('0 0 0 1 * 2 *')!)!, /cannot both be set/);
    assert.match(dayFieldsProblem(splitExpression('0 0 0 ? * ? *')!)!, /only one/);
    assert.equal(dayFieldsProblem(splitExpression('0 0 0 ? * 2 *')!), undefined);
  });
  it('keeps years inside 1970-2099 (a step is not a year)', () => {
    assert.equal(yearProblem('2027/5'), undefined);
    assert.equal(yearProblem('*'), undefined);
    assert.ok(yearProblem('1969'));
    assert.ok(yearProblem('2030-2100'));
  });
});

describe('fire times are read once per plan', () => {
  it('the same expression and time zone give the same fire times; another zone or expression its own', () => {
    const fields = splitExpression('0 0 0 1 * ? *')!;
    assert.equal(fireTimes(fields, 'Europe/Berlin'), fireTimes(splitExpression('0 0 0 1 * ? *')!, 'Europe/Berlin'));
    assert.notEqual(fireTimes(fields, 'Europe/Berlin'), fireTimes(fields, 'UTC'));
    assert.notEqual(fireTimes(fields, 'UTC'), fireTimes(splitExpression('0 0 0 2 * ? *')!, 'UTC'));
  });

  it('a question asked again, or others in between, gets the same answers, each a Date of its own', () => {
    const times = fireTimes(splitExpression('0 30 9 15 6 ? *')!, 'UTC');
    const from = new Date('2026-06-15T09:30:00Z');
    const first = times.after(from)!;
    assert.equal(first.toISOString(), '2027-06-15T09:30:00.000Z');
    first.setUTCFullYear(1999);
    assert.equal(times.after(from)!.toISOString(), '2027-06-15T09:30:00.000Z', 'a caller changing its answer changes nothing here');
    assert.equal(times.after(new Date('2020-01-01T00:00:00Z'))!.toISOString(), '2020-06-15T09:30:00.000Z');
    assert.equal(times.after(from)!.toISOString(), '2027-06-15T09:30:00.000Z');
  });
});
