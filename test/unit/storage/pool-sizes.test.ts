import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { poolSizes } from '../../../src/storage/pg-storage.js';

describe('DATABASE_POOL_SIZE shared between the general pool and the group writes', () => {
  const cases: Array<[poolSize: number, general: number, groupWrites: number]> = [
    [1, 1, 1],
    [2, 1, 1],
    [5, 4, 1],
    [6, 3, 3],
    [10, 7, 3],
    [100, 97, 3],
  ];
  for (const [poolSize, general, groupWrites] of cases) {
    it(`${poolSize} → ${general} general + ${groupWrites} for group writes`, () => {
      assert.deepEqual(poolSizes(poolSize), { general, groupWrites });
    });
  }
});
