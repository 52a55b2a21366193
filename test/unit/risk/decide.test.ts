import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decideRisk } from '../../../src/domain/risk/decide.js';
import type { RiskFacts } from '../../../src/domain/risk/facts.js';
import { TEST_TRIGGERS } from '../../../src/domain/risk/test-triggers.js';
import { parseAmount } from '../../../src/domain/money.js';
import { facts, set } from './fixtures.js';

test('decision: the most severe action wins, the first rejecting rule gives the code, points add up', () => {
  const rules = set({
    mismatches: [{ between: 'billing-shipping', action: 'review', points: 200 }],
    parameters: [{ name: 'p3ds', equals: 'y', action: 'threeDSecure', points: 300 }, { name: 'pscore', equals: 'y', action: 'score', points: 100 }],
    amountLimits: [{ currency: 'EUR', maxMinor: 100n, action: 'reject', points: 1000 }],
  });
  const cases: [string, Partial<RiskFacts>, string, string | undefined, number][] = [
    ['nothing fires', { amountMinor: 50n }, 'accept', undefined, 0],
    ['score only', { amountMinor: 50n, parameters: { pscore: 'y' } }, 'accept', undefined, 100],
    ['review', { amountMinor: 50n, billingCountry: 'DE', shippingCountry: 'AT' }, 'review', '000.400.000', 200],
    ['3-D Secure over review', { amountMinor: 50n, billingCountry: 'DE', shippingCountry: 'AT', parameters: { p3ds: 'y' } }, 'threeDSecure', undefined, 500],
    ['3-D Secure of a bank account is a review', { amountMinor: 50n, methodKind: 'bankAccount', canAuthenticate: false, parameters: { p3ds: 'y' } }, 'review', '000.400.000', 300],
    ['3-D Secure of a merchant-initiated card payment is a review', { amountMinor: 50n, canAuthenticate: false, parameters: { p3ds: 'y' } }, 'review', '000.400.000', 300],
    ['blacklist over the amount limit', { listHits: [{ list: 'black', kind: 'email' }] }, 'reject', '800.300.200', 2000],
    ['amount limit', {}, 'reject', '100.550.312', 1000],
  ];
  for (const [name, f, kind, code, score] of cases) {
    const d = decideRisk(rules, facts(f), 'test');
    assert.equal(d.kind, kind, name);
    assert.equal(d.code, code, name);
    assert.equal(d.score, score, name);
  }
});

test('score thresholds: review and reject at a score, over everything that fired', () => {
  const rules = set({ reviewAtScore: 100, rejectAtScore: 300, parameters: [{ name: 'a', equals: 'y', action: 'score', points: 100 }, { name: 'b', equals: 'y', action: 'score', points: 200 }] });
  const cases: [Record<string, string>, string, string | undefined][] = [
    [{}, 'accept', undefined],
    [{ a: 'y' }, 'review', '000.400.000'],
    [{ a: 'y', b: 'y' }, 'reject', '100.400.319'],
  ];
  for (const [parameters, kind, code] of cases) {
    const d = decideRisk(rules, facts({ parameters }), 'test');
    assert.deepEqual([d.kind, d.code], [kind, code], JSON.stringify(parameters));
  }
});

test('the score stays within -99999..+99999', () => {
  const many = Array.from({ length: 50 }, (_, i) => ({ name: `p${i}x`, equals: 'y', action: 'score' as const, points: 99999 }));
  const all = Object.fromEntries(many.map((p) => [p.name, 'y']));
  assert.equal(decideRisk(set({ parameters: many }), facts({ parameters: all }), 'test').score, 99999);
  const negative = many.map((p) => ({ ...p, points: -99999 }));
  assert.equal(decideRisk(set({ parameters: negative }), facts({ parameters: all }), 'test').score, -99999);
});

test('the documented test data: each trigger decides on the test system, none on the live system', () => {
  for (const trigger of TEST_TRIGGERS) {
    const f: Partial<RiskFacts> =
      trigger.field === 'customer.email' ? { email: trigger.value }
      : trigger.field === 'customer.ip' ? { ip: trigger.value }
      : trigger.field === 'card.bin' ? { bin: trigger.value }
      : { amountMinor: parseAmount(trigger.value) };
    const rules = set({ testTriggers: true });
    const expected = trigger.action === 'score' ? 'accept' : trigger.action;
    assert.equal(decideRisk(rules, facts(f), 'test').kind, expected, `${trigger.field}=${trigger.value}`);
    assert.equal(decideRisk(rules, facts(f), 'live').kind, 'accept', `live ${trigger.field}=${trigger.value}`);
    assert.equal(decideRisk(set({ testTriggers: false }), facts(f), 'test').kind, 'accept');
  }
});
