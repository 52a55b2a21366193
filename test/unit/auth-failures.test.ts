import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExpiringMap } from '../../src/domain/expiring-map.js';
import { AuthFailureLimiter, countFailure, type FailureCount } from '../../src/http/auth-failures.js';
import { ManualClock } from '../support/test-app.js';

describe('countFailure (fixed windows per client address)', () => {
  const WINDOW = 1_000;
  const cases: { name: string; previous: FailureCount | undefined; nowMs: number; expected: FailureCount }[] = [
    { name: 'the first failure opens a window', previous: undefined, nowMs: 5_000, expected: { count: 1, resetAtMs: 6_000 } },
    { name: 'a failure inside the window adds to it', previous: { count: 3, resetAtMs: 6_000 }, nowMs: 5_999, expected: { count: 4, resetAtMs: 6_000 } },
    { name: 'a failure at the window end opens the next', previous: { count: 9, resetAtMs: 6_000 }, nowMs: 6_000, expected: { count: 1, resetAtMs: 7_000 } },
    { name: 'a failure long after opens the next', previous: { count: 9, resetAtMs: 6_000 }, nowMs: 60_000, expected: { count: 1, resetAtMs: 61_000 } },
  ];
  for (const row of cases) {
    it(row.name, () => assert.deepEqual(countFailure(row.previous, row.nowMs, WINDOW), row.expected));
  }
});

describe('AuthFailureLimiter in memory', () => {
  it('blocks an address from the failure that goes over the limit until its window ends', async () => {
    const clock = new ManualClock();
    const limiter = new AuthFailureLimiter({ maxFailures: 2, windowMs: 10_000, clock, redis: undefined });
    assert.deepEqual([await limiter.recordFailure('a'), await limiter.recordFailure('a')], [0, 0]);
    assert.equal(limiter.retryAfterMs('a'), 0, 'within the limit');
    clock.advance(4_000);
    assert.equal(await limiter.recordFailure('a'), 6_000);
    assert.equal(limiter.retryAfterMs('a'), 6_000);
    assert.equal(limiter.retryAfterMs('b'), 0, 'other addresses are free');
    clock.advance(6_000);
    assert.equal(limiter.retryAfterMs('a'), 0);
    assert.equal(await limiter.recordFailure('a'), 0, 'a new window');
  });
});

describe('ExpiringMap', () => {
  it('forgets entries when they expire', () => {
    const map = new ExpiringMap<string, number>(10);
    map.set('k', 1, 100);
    assert.equal(map.get('k', 99), 1);
    assert.equal(map.get('k', 100), undefined);
    assert.equal(map.size, 0);
  });

  it('when full, drops the entry written longest ago, never everything', () => {
    const map = new ExpiringMap<string, number>(3);
    for (const key of ['a', 'b', 'c']) map.set(key, 1, 1_000);
    map.set('a', 2, 1_000);
    map.set('d', 1, 1_000);
    assert.equal(map.size, 3);
    assert.deepEqual(['a', 'b', 'c', 'd'].map((key) => map.get(key, 0)), [2, undefined, 1, 1]);
  });
});
