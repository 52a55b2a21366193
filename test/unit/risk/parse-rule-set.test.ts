import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatRuleSet, parseRuleSet } from '../../../src/domain/risk/parse-rule-set.js';
import { DEFAULT_RULE_SET } from '../../../src/domain/risk/rule-set.js';

test('rule sets: every problem named with its path', () => {
  const cases: [unknown, string[]][] = [
    [[], ['the rule set must be a JSON object']],
    [{ nope: 1 }, ['nope: is not a rule set field']],
    [{ enabled: 'yes' }, ['enabled: must be true or false']],
    [{ reviewAtScore: 100000 }, ['reviewAtScore: must be a whole number from -99999 to 99999']],
    [{ currencies: ['EUR', 'eur'] }, ['currencies: must be a list of ISO 4217 currency codes']],
    [{ countries: ['DEU'] }, ['countries: must be a list of ISO alpha-2 country codes']],
    [{ amountLimits: [{ currency: 'EUR' }] }, ['amountLimits[0]: needs min, max or both']],
    [{ amountLimits: [{ currency: 'EUR', max: 5 }] }, ['amountLimits[0].max: must be an amount as a string with up to two decimals, e.g. "500.00"']],
    [{ velocity: [{ key: 'phone', measure: 'attempts', windowMinutes: 10, max: 1, action: 'reject' }] }, ['velocity[0].key: must be one of card, email, ip, customer']],
    [{ velocity: [{ key: 'card', measure: 'amount', windowMinutes: 10, max: '1.00', action: 'reject' }] }, ['velocity[0].currency: must be an ISO 4217 currency code, e.g. EUR']],
    [{ velocity: [{ key: 'card', measure: 'attempts', windowMinutes: 0, max: 1, action: 'block' }] }, ['velocity[0].windowMinutes: must be a whole number from 1 to 10080', 'velocity[0].action: must be one of reject, threeDSecure, review, score']],
    [{ mismatches: [{ between: 'ip-billing', action: 'review' }] }, ['mismatches[0].between: must be one of billing-shipping, billing-card']],
    [{ parameters: [{ name: 'x', equals: 'y', action: 'review' }] }, ['parameters[0].name: must be a parameter name of 3 to 64 of a-z A-Z 0-9 . _']],
    [{ binCountries: { '4200': 'DE' } }, ['binCountries.4200: must map a BIN of 6 to 8 digits to an ISO alpha-2 country']],
  ];
  for (const [input, errors] of cases) {
    const parsed = parseRuleSet(input);
    assert.deepEqual('errors' in parsed ? parsed.errors : [], errors, JSON.stringify(input));
  }
});

test('rule sets: parse and format are inverse; actions default their points', () => {
  const wire = {
    velocity: [{ key: 'email', measure: 'amount', windowMinutes: 60, max: '1000.00', currency: 'EUR', action: 'review' }],
    amountLimits: [{ currency: 'EUR', min: '1.00', max: '500.00' }],
    binCountries: { '420000': 'DE' },
  };
  const parsed = parseRuleSet(wire);
  assert.ok(!('errors' in parsed));
  assert.equal(parsed.velocity[0]!.max, 100000n);
  assert.equal(parsed.velocity[0]!.points, 500);
  assert.equal(parsed.amountLimits[0]!.action, 'reject');
  assert.deepEqual(parseRuleSet(formatRuleSet(parsed)), parsed);
  const defaults = parseRuleSet(formatRuleSet(DEFAULT_RULE_SET));
  assert.ok(!('errors' in defaults));
  assert.deepEqual(formatRuleSet(defaults), formatRuleSet(DEFAULT_RULE_SET));
});
