import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextCheck, pastHorizon } from '../../../src/domain/pending-schedule.js';

const schedule = { checkDelaysMinutes: [5, 15, 60], horizonHours: 4 };
const created = new Date('2026-11-22T10:00:00Z');
const at = (iso: string) => new Date(`2026-11-22T${iso}Z`);

describe('pending checks: the back-off schedule and the horizon', () => {
  const table: ReadonlyArray<readonly [string, number, Date | null, ReturnType<typeof nextCheck>]> = [
    ['the first check: the first delay after creation', 0, null, { kind: 'check', at: at('10:05:00') }],
    ['the second: the second delay after the first check', 1, at('10:05:00'), { kind: 'check', at: at('10:20:00') }],
    ['the third: the last delay', 2, at('10:20:00'), { kind: 'check', at: at('11:20:00') }],
    ['later checks repeat the last delay', 7, at('12:20:00'), { kind: 'check', at: at('13:20:00') }],
    ['a check that would fall on or after the horizon ends the transaction there', 8, at('13:20:00'), { kind: 'horizon', at: at('14:00:00') }],
    ['delays count from the check itself, however late it ran', 1, at('10:09:00'), { kind: 'check', at: at('10:24:00') }],
  ];
  for (const [name, done, last, expected] of table) {
    it(name, () => assert.deepEqual(nextCheck(schedule, { createdAt: created }, done, last), expected));
  }

  it('the horizon is counted from the creation', () => {
    assert.equal(pastHorizon(schedule, { createdAt: created }, at('13:59:59')), false);
    assert.equal(pastHorizon(schedule, { createdAt: created }, at('14:00:00')), true);
  });
});
