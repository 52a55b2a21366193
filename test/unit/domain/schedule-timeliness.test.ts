import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fireTimes, splitExpression } from '../../../src/domain/schedules/cron.js';
import { isLate, nextFireTime, passedOverFireTimes, type Moment } from '../../../src/domain/schedules/plan.js';

const at = (iso: string) => new Date(iso);
const HOURLY = fireTimes(splitExpression('0 0 * * * ? *')!, 'UTC');
const EVERY_SECOND = fireTimes(splitExpression('* * * * * ? *')!, 'UTC');
const OPEN = { startsAt: at('2027-01-01T00:00:00Z'), endsAt: undefined };

describe('a late run (gateway_schedule_runs_total{timeliness="late"})', () => {
  const table: [name: string, dueAt: string, now: string, playedUntil: string | undefined, late: boolean][] = [
    ['on its fire time', '2027-01-01T10:00:00Z', '2027-01-01T10:00:00Z', undefined, false],
    ['exactly the bound after it', '2027-01-01T10:00:00Z', '2027-01-01T10:01:00Z', undefined, false],
    ['a millisecond past the bound', '2027-01-01T10:00:00Z', '2027-01-01T10:01:00.001Z', undefined, true],
    ['hours late after an outage', '2027-01-01T10:00:00Z', '2027-01-01T13:00:00Z', undefined, true],
    ['a fire time the test clock jumped over (played)', '2027-01-01T10:00:00Z', '2027-01-01T13:00:00Z', '2027-01-01T12:00:00Z', false],
    ['after the test clock\'s jump, late for real', '2027-01-01T13:00:00Z', '2027-01-01T13:05:00Z', '2027-01-01T12:00:00Z', true],
  ];
  for (const [name, dueAt, now, playedUntil, late] of table) {
    it(`${name} → ${late ? 'late' : 'on time'}`, () => {
      assert.equal(isLate(at(dueAt), { now: at(now), playedUntil: playedUntil ? at(playedUntil) : undefined }, 60_000), late);
    });
  }
});

describe('fire times passed over (gateway_schedule_runs_missed_total)', () => {
  const moment = (now: string): Moment => ({ now: at(now), playedUntil: undefined, missedAfterMs: 300_000 });

  it('none when the next fire time follows', () => {
    const next = nextFireTime(HOURLY, OPEN, at('2027-01-01T10:00:00Z'), moment('2027-01-01T10:00:05Z'));
    assert.deepEqual(next, at('2027-01-01T11:00:00Z'));
    assert.equal(passedOverFireTimes(HOURLY, OPEN, at('2027-01-01T10:00:00Z'), next, at('2027-01-01T10:00:05Z')), 0);
  });

  it('those between a run made after an outage and the first fire time after now', () => {
    // Down from 10:00 to 13:30: the 10:00 run is made once, 11:00, 12:00 and 13:00 are passed over.
    const now = '2027-01-01T13:30:00Z';
    const next = nextFireTime(HOURLY, OPEN, at('2027-01-01T10:00:00Z'), moment(now));
    assert.deepEqual(next, at('2027-01-01T14:00:00Z'));
    assert.equal(passedOverFireTimes(HOURLY, OPEN, at('2027-01-01T10:00:00Z'), next, at(now)), 3);
  });

  it('up to the end of the window when the plan ends meanwhile', () => {
    const window = { startsAt: OPEN.startsAt, endsAt: at('2027-01-01T12:00:00Z') };
    assert.equal(passedOverFireTimes(HOURLY, window, at('2027-01-01T10:00:00Z'), undefined, at('2027-01-01T13:30:00Z')), 2);
  });

  it('counts at most its limit (a schedule firing every second, down for a day)', () => {
    assert.equal(passedOverFireTimes(EVERY_SECOND, OPEN, at('2027-01-01T00:00:00Z'), at('2027-01-02T00:00:01Z'), at('2027-01-02T00:00:00Z'), 500), 500);
  });
});
