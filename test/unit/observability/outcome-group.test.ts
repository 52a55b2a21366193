import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { outcomeGroupOf, type OutcomeGroup } from '../../../src/domain/outcome-group.js';
import { resultCodes } from '../../../src/results/catalogue.js';

const CASES: ReadonlyArray<readonly [string, OutcomeGroup]> = [
  ['000.000.000', 'success'],
  ['000.100.110', 'success'],
  ['000.400.000', 'success'],
  ['000.200.000', 'pending'],
  ['800.400.500', 'pending'],
  ['800.100.151', 'declined'],
  ['800.100.100', 'declined'],
  ['100.396.101', 'declined'],
  ['800.300.101', 'risk'],
  ['100.400.080', 'risk'],
  ['800.400.100', 'risk'],
  ['800.400.200', 'three_d_secure'],
  ['100.390.105', 'three_d_secure'],
  ['000.400.101', 'three_d_secure'],
  ['900.100.300', 'error'],
  ['800.500.100', 'error'],
  ['600.100.100', 'error'],
  ['200.300.404', 'validation'],
  ['100.100.101', 'validation'],
  ['600.200.100', 'validation'],
  ['700.400.200', 'validation'],
  ['100.550.300', 'validation'],
];

describe('the outcome group of a result code', () => {
  for (const [code, group] of CASES) it(`${code} is ${group}`, () => assert.equal(outcomeGroupOf(code), group));

  it('puts every code of the catalogue in a group', () => {
    const groups = new Set([...resultCodes.keys()].map(outcomeGroupOf));
    assert.deepEqual([...groups].sort(), ['declined', 'error', 'pending', 'risk', 'success', 'three_d_secure', 'validation']);
  });
});
