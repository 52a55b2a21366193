import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mismatchRules } from '../../../src/domain/risk/rules/mismatch.js';
import { parameterRules } from '../../../src/domain/risk/rules/parameters.js';
import { facts, set } from './fixtures.js';

test('mismatches: billing vs shipping, billing vs card issuer country; unknown countries never mismatch', () => {
  const rules = set({ mismatches: [{ between: 'billing-shipping', action: 'review', points: 200 }, { between: 'billing-card', action: 'score', points: 50 }] });
  const cases: [Parameters<typeof facts>[0], string[]][] = [
    [{}, []],
    [{ billingCountry: 'DE', shippingCountry: 'DE', binCountry: 'DE' }, []],
    [{ billingCountry: 'DE', shippingCountry: 'AT' }, ['mismatch.billing-shipping']],
    [{ billingCountry: 'DE', binCountry: 'US' }, ['mismatch.billing-card']],
    [{ shippingCountry: 'AT', binCountry: 'US' }, []],
    [{ billingCountry: 'DE', shippingCountry: 'AT', binCountry: 'US' }, ['mismatch.billing-shipping', 'mismatch.billing-card']],
  ];
  for (const [f, expected] of cases) assert.deepEqual(mismatchRules(rules, facts(f)).map((r) => r.rule), expected, JSON.stringify(f));
});

test('custom parameters: an exact value of risk.parameters, risk.channelId or risk.serviceId', () => {
  const rules = set({ parameters: [{ name: 'USER_DATA1', equals: 'x', action: 'reject', points: 1000 }, { name: 'channelId', equals: 'web', action: 'score', points: 10 }] });
  const cases: [Record<string, string>, string[]][] = [
    [{}, []],
    [{ USER_DATA1: 'x' }, ['parameters[0].USER_DATA1']],
    [{ USER_DATA1: 'X' }, []],
    [{ channelId: 'web', USER_DATA1: 'x' }, ['parameters[0].USER_DATA1', 'parameters[1].channelId']],
  ];
  for (const [parameters, expected] of cases) assert.deepEqual(parameterRules(rules, facts({ parameters })).map((r) => r.rule), expected, JSON.stringify(parameters));
});
