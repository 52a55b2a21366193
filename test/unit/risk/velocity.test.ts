import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VelocityCount } from '../../../src/domain/risk/facts.js';
import { DEFAULT_RULE_SET, type VelocityRule } from '../../../src/domain/risk/rule-set.js';
import { countedKeys } from '../../../src/operations/risk/evaluate-payment-risk.js';
import { velocityRules } from '../../../src/domain/risk/rules/velocity.js';
import { EMPTY_SET, facts, set } from './fixtures.js';

const rule = (r: Partial<VelocityRule>): VelocityRule => ({ key: 'card', measure: 'attempts', windowMinutes: 10, max: 2n, action: 'reject', points: 1000, ...r });
const count = (attempts: number, declines = 0, amountMinor = 0n): VelocityCount => ({ attempts, declines, amountMinor });

test('velocity: this attempt counts; above max fires with the key\'s 800.120.* code', () => {
  const cases: [string, VelocityRule, VelocityCount, Parameters<typeof facts>[0], string | null][] = [
    ['2 earlier, max 2: third fires', rule({}), count(2), {}, '800.120.101'],
    ['1 earlier, max 2: second passes', rule({}), count(1), {}, null],
    ['e-mail', rule({ key: 'email' }), count(5), { email: 'a@b.c' }, '800.120.103'],
    ['ip', rule({ key: 'ip' }), count(5), { ip: '192.0.2.1' }, '800.120.102'],
    ['customer', rule({ key: 'customer' }), count(5), { customerId: 'c1' }, '800.120.101'],
    ['no e-mail in the payment: cannot apply', rule({ key: 'email' }), count(5), {}, null],
    ['declines: earlier declines only', rule({ measure: 'declines', max: 1n }), count(9, 1), {}, null],
    ['declines above max', rule({ measure: 'declines', max: 1n }), count(9, 2), {}, '800.120.101'],
    ['amount: earlier plus this one above max', rule({ measure: 'amount', max: 10000n, currency: 'EUR' }), count(1, 0, 900n), {}, '800.120.201'],
    ['amount at max passes', rule({ measure: 'amount', max: 10100n, currency: 'EUR' }), count(1, 0, 900n), {}, null],
    ['amount of another currency is not summed', rule({ measure: 'amount', max: 1n, currency: 'USD' }), count(1, 0, 900n), {}, null],
    ['amount per ip', rule({ key: 'ip', measure: 'amount', max: 1n, currency: 'EUR' }), count(0), { ip: '192.0.2.1' }, '800.120.202'],
    ['amount per e-mail', rule({ key: 'email', measure: 'amount', max: 1n, currency: 'EUR' }), count(0), { email: 'a@b.c' }, '800.120.203'],
  ];
  for (const [name, r, c, f, code] of cases) {
    const fired = velocityRules(set({ velocity: [r] }), facts({ ...f, velocity: [c] }), false);
    assert.deepEqual(fired.map((x) => x.code), code ? [code] : [], name);
  }
});

test('velocity: a whitelisted payment skips every velocity rule', () => {
  assert.deepEqual(velocityRules(set({ velocity: [rule({})] }), facts({ velocity: [count(99)] }), true), []);
});

test('velocity: an attempt is recorded under the keys the rule set counts, each once', () => {
  const cases: [string, readonly VelocityRule[], string[]][] = [
    ['no velocity rule', [], []],
    ['the default rules', DEFAULT_RULE_SET.velocity, ['card', 'ip']],
    ['one key, three measures', [rule({}), rule({ measure: 'declines' }), rule({ measure: 'amount' })], ['card']],
    ['every key, out of order', [rule({ key: 'customer' }), rule({ key: 'email' }), rule({ key: 'ip' }), rule({ key: 'card' })], ['card', 'email', 'ip', 'customer']],
  ];
  for (const [name, velocity, expected] of cases) assert.deepEqual(countedKeys({ ...EMPTY_SET, velocity }), expected, name);
});
