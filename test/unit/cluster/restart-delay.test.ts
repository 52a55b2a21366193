import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { restartDelayMs } from '../../../src/cluster/primary.js';

describe('how long the primary waits before replacing a dead process', () => {
  const table: [deathsInLastMinute: number, base: number | undefined, expectedMs: number][] = [
    [1, undefined, 1_000],
    [2, undefined, 2_000],
    [3, undefined, 4_000],
    [5, undefined, 16_000],
    [6, undefined, 30_000],
    [50, undefined, 30_000],
    [1, 100, 100],
    [4, 100, 800],
    [0, undefined, 1_000],
  ];
  for (const [deaths, base, expected] of table) {
    it(`${deaths} death(s) in the last minute, base ${base ?? 'default'}: ${expected} ms`, () => {
      assert.equal(restartDelayMs(deaths, base), expected);
    });
  }
});
