import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowListRules, amountLimitRules } from '../../../src/domain/risk/rules/limits.js';
import { facts, set } from './fixtures.js';

test('amount limits per transaction: min and max inclusive, own currency only, 100.550.312', () => {
  const limit = { currency: 'EUR', minMinor: 100n, maxMinor: 50000n, action: 'reject' as const, points: 1000 };
  const cases: [bigint, string, string[]][] = [
    [9200n, 'EUR', []],
    [50000n, 'EUR', []],
    [50001n, 'EUR', ['amountLimits[0].max']],
    [100n, 'EUR', []],
    [99n, 'EUR', ['amountLimits[0].min']],
    [99999999n, 'USD', []],
  ];
  for (const [amountMinor, currency, expected] of cases) {
    const fired = amountLimitRules(set({ amountLimits: [limit] }), facts({ amountMinor, currency }));
    assert.deepEqual(fired.map((r) => r.rule), expected, `${amountMinor} ${currency}`);
    assert.ok(fired.every((r) => r.code === '100.550.312'));
  }
});

test('allow-lists: currency (600.200.500), billing and BIN issuer country (100.400.021)', () => {
  const rules = set({ currencies: ['EUR'], countries: ['DE'] });
  const cases: [Parameters<typeof facts>[0], [string, string][]][] = [
    [{}, []],
    [{ currency: 'USD' }, [['currencies', '600.200.500']]],
    [{ billingCountry: 'DE', binCountry: 'DE' }, []],
    [{ billingCountry: 'FR' }, [['countries.billing', '100.400.021']]],
    [{ binCountry: 'US' }, [['countries.bin', '100.400.021']]],
  ];
  for (const [f, expected] of cases) assert.deepEqual(allowListRules(rules, facts(f)).map((r) => [r.rule, r.code]), expected, JSON.stringify(f));
  assert.deepEqual(allowListRules(set({}), facts({ currency: 'JPY', billingCountry: 'FR' })), []);
});
