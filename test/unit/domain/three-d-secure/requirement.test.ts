import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_THREE_D_SECURE_REQUIREMENT,
  REQUIREMENT_MODES,
  formatRequirement,
  isParseError,
  isRequired,
  parseRequirement,
  type ThreeDSecureRequirement,
} from '../../../../src/domain/three-d-secure/requirement.js';

const ABOVE_50_EUR: ThreeDSecureRequirement = { mode: 'above', amountMinor: 5000n, currency: 'EUR' };

describe('parseRequirement and formatRequirement', () => {
  const ROWS: readonly [text: string, parsed: ThreeDSecureRequirement, formatted: string][] = [
    ['never', { mode: 'never' }, 'never'],
    ['if-enrolled', { mode: 'if-enrolled' }, 'if-enrolled'],
    ['always', { mode: 'always' }, 'always'],
    ['above:50.00:EUR', ABOVE_50_EUR, 'above:50.00:EUR'],
    ['above:50:EUR', ABOVE_50_EUR, 'above:50.00:EUR'],
    ['above:0.01:USD', { mode: 'above', amountMinor: 1n, currency: 'USD' }, 'above:0.01:USD'],
    ['above:0:GBP', { mode: 'above', amountMinor: 0n, currency: 'GBP' }, 'above:0.00:GBP'],
  ];
  for (const [text, parsed, formatted] of ROWS) {
    it(`${text} → ${formatted}`, () => {
      const result = parseRequirement(text);
      assert.deepEqual(result, parsed);
      assert.ok(!isParseError(result));
      assert.equal(formatRequirement(result), formatted);
      assert.deepEqual(parseRequirement(formatRequirement(result)), parsed, 'format is the inverse of parse');
    });
  }

  const BAD = ['', 'Always', 'NEVER', 'sometimes', 'above', 'above:', 'above:50.00', 'above:50.00:', 'above:50.00:eur', 'above:50.00:XYZ', 'above:-1.00:EUR',
    'above:50.5:EUR', 'above:1e3:EUR', 'above:50.00:EUR:x', 'above::EUR', ' always', 'always '];
  for (const text of BAD) {
    it(`refuses ${JSON.stringify(text)} with a message`, () => {
      const result = parseRequirement(text);
      assert.ok(isParseError(result));
      assert.match(result.error, /above:50\.00:EUR/);
    });
  }

  it('the default is if-enrolled, and every documented mode parses from its text', () => {
    assert.deepEqual(DEFAULT_THREE_D_SECURE_REQUIREMENT, { mode: 'if-enrolled' });
    for (const entry of REQUIREMENT_MODES) {
      const parsed = parseRequirement(entry.text);
      assert.ok(!isParseError(parsed) && parsed.mode === entry.mode, entry.text);
    }
  });
});

describe('isRequired', () => {
  const ROWS: readonly [name: string, requirement: ThreeDSecureRequirement, amountMinor: bigint, currency: string, required: boolean][] = [
    ['never, any amount', { mode: 'never' }, 1_000_000n, 'EUR', false],
    ['if-enrolled, any amount', { mode: 'if-enrolled' }, 1_000_000n, 'EUR', false],
    ['always, tiny amount', { mode: 'always' }, 1n, 'EUR', true],
    ['always, zero amount', { mode: 'always' }, 0n, 'USD', true],
    ['above 50.00 EUR, below (49.99)', ABOVE_50_EUR, 4999n, 'EUR', false],
    ['above 50.00 EUR, at the threshold (50.00): strictly above only', ABOVE_50_EUR, 5000n, 'EUR', false],
    ['above 50.00 EUR, over (50.01)', ABOVE_50_EUR, 5001n, 'EUR', true],
    ['above 50.00 EUR, far over', ABOVE_50_EUR, 10_000_000n, 'EUR', true],
    ['above 50.00 EUR, another currency below the number: no exchange rate, so required', ABOVE_50_EUR, 100n, 'USD', true],
    ['above 50.00 EUR, another currency over the number', ABOVE_50_EUR, 9999n, 'GBP', true],
    ['above 0.00 EUR, zero amount', { mode: 'above', amountMinor: 0n, currency: 'EUR' }, 0n, 'EUR', false],
  ];
  for (const [name, requirement, amountMinor, currency, required] of ROWS) {
    it(name, () => assert.equal(isRequired(requirement, amountMinor, currency), required));
  }
});
