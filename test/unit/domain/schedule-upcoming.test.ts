/** The next fire times the console shows: from the firing waited for, by the runner's own cron source, never past the end. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fireTimes, splitExpression } from '../../../src/domain/schedules/cron.js';
import { upcomingFireTimes } from '../../../src/domain/schedules/upcoming.js';

const at = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);
const wire = (dates: Date[]) => dates.map((d) => d.toISOString().slice(0, 19).replace('T', ' '));
const times = (expression: string, zone: string) => fireTimes(splitExpression(expression)!, zone);

describe('upcomingFireTimes', () => {
  const CASES: ReadonlyArray<{ name: string; expression: string; zone: string; fireAt: string; endsAt: string | null; count: number; expected: string[] }> = [
    { name: 'monthly in Berlin across the spring change', expression: '0 0 6 1 * ? *', zone: 'Europe/Berlin', fireAt: '2027-02-01 05:00:00', endsAt: null, count: 3,
      expected: ['2027-02-01 05:00:00', '2027-03-01 05:00:00', '2027-04-01 04:00:00'] },
    { name: 'the last weekday of the month', expression: '0 0 9 LW * ? *', zone: 'UTC', fireAt: '2027-01-29 09:00:00', endsAt: null, count: 3,
      expected: ['2027-01-29 09:00:00', '2027-02-26 09:00:00', '2027-03-31 09:00:00'] },
    { name: 'stops at the end', expression: '0 30 8 ? * MON *', zone: 'UTC', fireAt: '2026-11-23 08:30:00', endsAt: '2026-12-07 08:30:00', count: 5,
      expected: ['2026-11-23 08:30:00', '2026-11-30 08:30:00', '2026-12-07 08:30:00'] },
    { name: 'a firing after the end shows nothing', expression: '0 0 0 1 1 ? *', zone: 'UTC', fireAt: '2028-01-01 00:00:00', endsAt: '2027-06-01 00:00:00', count: 5, expected: [] },
    { name: 'a year field with no more years', expression: '0 0 0 1 1 ? 2027', zone: 'UTC', fireAt: '2027-01-01 00:00:00', endsAt: null, count: 5, expected: ['2027-01-01 00:00:00'] },
  ];
  for (const c of CASES) {
    it(c.name, () => {
      assert.deepEqual(wire(upcomingFireTimes(times(c.expression, c.zone), at(c.fireAt), c.endsAt ? at(c.endsAt) : null, c.count)), c.expected);
    });
  }
});
