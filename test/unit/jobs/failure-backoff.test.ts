import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failureDelayMs, JOB_MAX_FAILURES, shouldGiveUp } from '../../../src/jobs/failure-backoff.js';

describe('back-off of failing jobs', () => {
  const table: [failures: number, delayMs: number][] = [
    [1, 1_000], [2, 2_000], [3, 4_000], [10, 512_000], [12, 2_048_000], [13, 3_600_000], [25, 3_600_000], [1000, 3_600_000],
  ];
  for (const [failures, delayMs] of table) {
    it(`waits ${delayMs} ms after failure ${failures}`, () => assert.equal(failureDelayMs(failures), delayMs));
  }
  it(`gives up after ${JOB_MAX_FAILURES} failures`, () => {
    assert.equal(shouldGiveUp(JOB_MAX_FAILURES - 1), false);
    assert.equal(shouldGiveUp(JOB_MAX_FAILURES), true);
    assert.equal(shouldGiveUp(3, 3), true);
  });
});
