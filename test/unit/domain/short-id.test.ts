import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newShortId, SHORT_ID_PATTERN } from '../../../src/domain/short-id.js';

describe('newShortId', () => {
  const cases: [number[], string][] = [
    [[7, 7, 7], '0007.0007.0007'],
    [[0, 42, 9999], '0000.0042.9999'],
    [[1234, 5678, 9012], '1234.5678.9012'],
  ];
  for (const [draws, expected] of cases) {
    it(`draws ${draws.join(', ')} give ${expected}`, () => {
      const next = [...draws];
      assert.equal(newShortId(() => next.shift()!), expected);
    });
  }

  it('is three groups of four random digits by default', () => {
    const ids = Array.from({ length: 200 }, () => newShortId());
    for (const id of ids) assert.match(id, SHORT_ID_PATTERN);
    assert.ok(new Set(ids).size > 190, 'random, not constant');
  });
});
