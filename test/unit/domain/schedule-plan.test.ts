import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fireTimes, splitExpression } from '../../../src/domain/schedules/cron.js';
import { addUnits, firstFireTime, isMissed, nextFireTime, retryAdvice, retryTime, scheduleWindow, shouldRun, type Moment } from '../../../src/domain/schedules/plan.js';

const at = (iso: string) => new Date(iso);
const HOURLY = fireTimes(splitExpression('0 0 * * * ? *')!, 'UTC');
const moment = (now: string, playedUntil?: string): Moment => ({ now: at(now), playedUntil: playedUntil ? at(playedUntil) : undefined, missedAfterMs: 300_000 });

describe('schedule window', () => {
  it('starts at job.startDate (or the creation), ends at the earlier of endDate and the duration', () => {
    const created = at('2027-01-10T00:00:00Z');
    assert.deepEqual(scheduleWindow({ createdAt: created }), { startsAt: created, endsAt: undefined });
    assert.deepEqual(scheduleWindow({ createdAt: created, startDate: at('2027-02-01T00:00:00Z'), durationUnit: 'MONTH', durationNumber: 3 }), { startsAt: at('2027-02-01T00:00:00Z'), endsAt: at('2027-05-01T00:00:00Z') });
    assert.deepEqual(scheduleWindow({ createdAt: created, endDate: at('2027-03-01T00:00:00Z'), durationUnit: 'YEAR', durationNumber: 1 }).endsAt, at('2027-03-01T00:00:00Z'));
  });
  it('adds calendar units in UTC', () => {
    assert.deepEqual(addUnits(at('2027-01-31T00:00:00Z'), 'WEEK', 2), at('2027-02-14T00:00:00Z'));
    assert.deepEqual(addUnits(at('2028-02-29T00:00:00Z'), 'YEAR', 1), at('2029-03-01T00:00:00Z'));
    assert.deepEqual(addUnits(at('2027-01-01T00:00:00Z'), 'SECOND', 9_999_999_999_999_999), at('2100-01-01T00:00:00Z'));
  });
  it('fires first at or after the start; a plan that never fires inside its window has no first fire time', () => {
    assert.deepEqual(firstFireTime(HOURLY, { startsAt: at('2027-01-01T10:00:00Z'), endsAt: undefined }), at('2027-01-01T10:00:00Z'));
    assert.equal(firstFireTime(HOURLY, { startsAt: at('2027-01-01T10:00:01Z'), endsAt: at('2027-01-01T10:59:59Z') }), undefined);
  });
});

describe('catch-up', () => {
  const window = { startsAt: at('2027-01-01T00:00:00Z'), endsAt: undefined };
  it('a fire time more than missedAfterMs behind the schedule\'s time is missed, unless a test clock played it', () => {
    assert.equal(isMissed(at('2027-01-01T10:00:00Z'), moment('2027-01-01T10:04:59Z')), false);
    assert.equal(isMissed(at('2027-01-01T10:00:00Z'), moment('2027-01-01T10:05:01Z')), true);
    assert.equal(isMissed(at('2027-01-01T10:00:00Z'), moment('2027-06-01T00:00:00Z', '2027-06-01T00:00:00Z')), false);
  });
  it('once: the missed run is made, then the schedule goes on after now; skip: it is not made', () => {
    const late = moment('2027-01-01T15:30:00Z');
    assert.equal(shouldRun(at('2027-01-01T10:00:00Z'), late, 'once'), true);
    assert.equal(shouldRun(at('2027-01-01T10:00:00Z'), late, 'skip'), false);
    assert.deepEqual(nextFireTime(HOURLY, window, at('2027-01-01T10:00:00Z'), late), at('2027-01-01T16:00:00Z'));
  });
  it('played fire times come one by one', () => {
    assert.deepEqual(nextFireTime(HOURLY, window, at('2027-01-01T10:00:00Z'), moment('2027-01-05T00:00:00Z', '2027-01-05T00:00:00Z')), at('2027-01-01T11:00:00Z'));
  });
  it('a little late (under load) is still on time', () => {
    assert.deepEqual(nextFireTime(HOURLY, window, at('2027-01-01T10:00:00Z'), moment('2027-01-01T11:02:00Z')), at('2027-01-01T11:00:00Z'));
  });
  it('ends with the window', () => {
    assert.equal(nextFireTime(HOURLY, { startsAt: window.startsAt, endsAt: at('2027-01-01T10:30:00Z') }, at('2027-01-01T10:00:00Z'), moment('2027-01-01T10:00:01Z')), undefined);
  });
});

describe('retries of declined runs', () => {
  const cases: ReadonlyArray<readonly [string, string | undefined, boolean]> = [
    ['800.100.203', undefined, true], // insufficient funds
    ['800.100.162', undefined, true], // limit exceeded
    ['800.100.100', undefined, true], // declined for unknown reason
    ['900.100.300', undefined, true], // timeout
    ['800.100.151', undefined, false], // invalid card
    ['800.100.159', undefined, false], // stolen card
    ['800.100.157', undefined, false], // wrong expiry date
    ['800.100.203', '03', false], // merchant advice: do not try again
    ['800.100.203', '21', false], // merchant advice: recurring payment cancelled
    ['800.100.151', '02', true], // merchant advice: try again later
  ];
  for (const [code, advice, retry] of cases) {
    it(`${code}${advice ? ` with merchant advice ${advice}` : ''}: ${retry ? 'retry' : 'no retry'}`, () => assert.equal(retryAdvice(code, advice).retry, retry));
  }
  it('retries after each delay, never past the next fire time, at most as many as delays', () => {
    const delays = [3_600_000, 7_200_000];
    const now = at('2027-01-01T00:00:00Z');
    assert.deepEqual(retryTime(now, 0, delays, at('2027-02-01T00:00:00Z')), at('2027-01-01T01:00:00Z'));
    assert.deepEqual(retryTime(now, 1, delays, undefined), at('2027-01-01T02:00:00Z'));
    assert.equal(retryTime(now, 2, delays, undefined), undefined);
    assert.equal(retryTime(now, 0, delays, at('2027-01-01T00:30:00Z')), undefined);
  });
});
