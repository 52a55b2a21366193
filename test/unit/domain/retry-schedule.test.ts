import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextAttemptAt, retryDelayMinutes } from '../../../src/domain/retry-schedule.js';
import { ManualClock } from '../../support/test-app.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

describe('webhook retry schedule', () => {
  // One row per failed attempt: the wait before the next one.
  const table: [failedAttempts: number, delayMinutes: number][] = [
    [1, 1], [2, 2], [3, 4], [4, 8], [5, 15], [6, 30], [7, 60], [8, 60], [50, 60], [700, 60],
  ];
  for (const [failedAttempts, delayMinutes] of table) {
    it(`after failed attempt ${failedAttempts} waits ${delayMinutes} min`, () => {
      assert.equal(retryDelayMinutes(failedAttempts), delayMinutes);
      const attemptedAt = new Date('2026-11-22T10:00:00Z');
      const next = nextAttemptAt({ firstAttemptAt: attemptedAt, failedAttempts, attemptedAt });
      assert.equal(next?.getTime(), attemptedAt.getTime() + delayMinutes * MINUTE_MS);
    });
  }

  it('rejects an attempt number below 1', () => {
    assert.throws(() => retryDelayMinutes(0), RangeError);
  });

  it('with a clock driven from attempt to attempt: 726 attempts in 30 days, then it gives up', () => {
    const clock = new ManualClock();
    const first = clock.now();
    const attemptTimes: number[] = [];
    let failedAttempts = 0;
    for (;;) {
      attemptTimes.push(clock.now().getTime() - first.getTime());
      failedAttempts += 1;
      const next = nextAttemptAt({ firstAttemptAt: first, failedAttempts, attemptedAt: clock.now() });
      if (!next) break;
      clock.advance(next.getTime() - clock.now().getTime());
    }
    const minutes = attemptTimes.map((ms) => ms / MINUTE_MS);
    assert.deepEqual(minutes.slice(0, 9), [0, 1, 3, 7, 15, 30, 60, 120, 180]);
    // 0, 1, 3, 7, 15, 30 min, then every hour from 60 min up to the 30th day.
    assert.equal(attemptTimes.length, 6 + 720);
    assert.equal(attemptTimes.at(-1), 30 * DAY_MS);
    assert.ok(minutes.slice(6).every((m, i) => i === 0 || m - minutes[6 + i - 1]! === 60));
  });

  it('counts the delay from the failed attempt, not from when it was due', () => {
    const first = new Date('2026-11-22T10:00:00Z');
    const late = new Date(first.getTime() + 10 * MINUTE_MS);
    assert.equal(nextAttemptAt({ firstAttemptAt: first, failedAttempts: 2, attemptedAt: late })?.getTime(), late.getTime() + 2 * MINUTE_MS);
  });

  it('gives up when the next try would fall after 30 days from the first attempt', () => {
    const first = new Date('2026-11-22T10:00:00Z');
    const lastHour = new Date(first.getTime() + 30 * DAY_MS - 30 * MINUTE_MS);
    assert.equal(nextAttemptAt({ firstAttemptAt: first, failedAttempts: 700, attemptedAt: lastHour }), undefined);
    const justInTime = new Date(first.getTime() + 30 * DAY_MS - 60 * MINUTE_MS);
    assert.equal(nextAttemptAt({ firstAttemptAt: first, failedAttempts: 700, attemptedAt: justInTime })?.getTime(), first.getTime() + 30 * DAY_MS);
  });
});
