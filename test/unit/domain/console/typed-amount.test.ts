import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTypedAmount } from '../../../../src/domain/console/typed-amount.js';

describe('an amount typed in the console (major units) as minor units, exactly', () => {
  const rows: ReadonlyArray<readonly [string, bigint | undefined]> = [
    ['12', 1200n],
    ['12.5', 1250n],
    ['12.50', 1250n],
    [' 0.01 ', 1n],
    ['0', 0n],
    ['9999999999.99', 999999999999n],
    ['0.1', 10n],
    ['12,50', undefined],
    ['-1', undefined],
    ['+1', undefined],
    ['1.505', undefined],
    ['1.', undefined],
    ['.5', undefined],
    ['1e3', undefined],
    ['12345678901', undefined],
    ['', undefined],
    ['١٢', undefined],
  ];
  for (const [typed, minor] of rows) {
    it(`${JSON.stringify(typed)} → ${minor === undefined ? 'refused' : `${minor}`}`, () => {
      assert.equal(parseTypedAmount(typed), minor);
    });
  }
});
