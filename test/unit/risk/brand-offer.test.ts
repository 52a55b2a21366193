import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hiddenBrands, type RiskProfile } from '../../../src/domain/risk/brand-offer.js';
import { parseRuleSet } from '../../../src/domain/risk/parse-rule-set.js';
import type { BrandOfferRule } from '../../../src/domain/risk/rule-set.js';
import { sessionFacts } from '../../../src/operations/risk/session-risk.js';

const ROWS: BrandOfferRule[] = [
  { profiles: ['review', 'reject'], hide: ['KLARNA_INVOICE', 'PAYPAL'] },
  { scoreAtLeast: 300, hide: ['KLARNA_INVOICE', 'PREPAYMENT'] },
  { profiles: ['threeDSecure'], scoreAtLeast: 500, hide: ['SOFORTUEBERWEISUNG'] },
];

test('brands offered per risk profile: the rows that match hide their brands, a row per case', () => {
  const cases: [RiskProfile, string[], string][] = [
    [{ kind: 'accept', score: 0 }, [], 'nothing matches'],
    [{ kind: 'accept', score: 299 }, [], 'just under the score'],
    [{ kind: 'accept', score: 300 }, ['KLARNA_INVOICE', 'PREPAYMENT'], 'the score reached'],
    [{ kind: 'review', score: 0 }, ['KLARNA_INVOICE', 'PAYPAL'], 'the profile'],
    [{ kind: 'review', score: 500 }, ['KLARNA_INVOICE', 'PAYPAL', 'PREPAYMENT'], 'two rows, each brand once, sorted'],
    [{ kind: 'threeDSecure', score: 300 }, ['KLARNA_INVOICE', 'PREPAYMENT'], 'both conditions of a row must hold'],
    [{ kind: 'threeDSecure', score: 500 }, ['KLARNA_INVOICE', 'PREPAYMENT', 'SOFORTUEBERWEISUNG'], 'both hold'],
    [{ kind: 'reject', score: -100 }, ['KLARNA_INVOICE', 'PAYPAL'], 'a negative score'],
  ];
  for (const [profile, expected, why] of cases) assert.deepEqual(hiddenBrands({ brandOffer: ROWS }, profile), expected, why);
  assert.deepEqual(hiddenBrands({}, { kind: 'reject', score: 99_999 }), [], 'no rows: every brand');
});

test('brandOffer rows: parsed, or every problem named', () => {
  const parsed = parseRuleSet({ brandOffer: ROWS });
  assert.ok(!('errors' in parsed));
  assert.deepEqual(parsed.brandOffer, ROWS);
  assert.equal((parseRuleSet({}) as { brandOffer?: unknown }).brandOffer, undefined, 'absent stays absent');
  const cases: [unknown, string[]][] = [
    [[{ hide: ['PAYPAL'] }], ['brandOffer[0]: needs profiles, scoreAtLeast or both']],
    [[{ profiles: ['risky'], hide: ['PAYPAL'] }], ['brandOffer[0].profiles: must be a list of accept, review, threeDSecure, reject']],
    [[{ profiles: [], hide: ['PAYPAL'] }], ['brandOffer[0].profiles: must be a list of accept, review, threeDSecure, reject']],
    [[{ scoreAtLeast: 1.5, hide: ['PAYPAL'] }], ['brandOffer[0].scoreAtLeast: must be a whole number from -99999 to 99999']],
    [[{ scoreAtLeast: 1, hide: [] }], ['brandOffer[0].hide: must be a list of payment brands, e.g. ["KLARNA_INVOICE"]']],
    [[{ scoreAtLeast: 1, hide: ['paypal'] }], ['brandOffer[0].hide: must be a list of payment brands, e.g. ["KLARNA_INVOICE"]']],
    [{ scoreAtLeast: 1 }, ['brandOffer: must be a list of at most 50 rules']],
  ];
  for (const [rows, errors] of cases) {
    const result = parseRuleSet({ brandOffer: rows });
    assert.deepEqual('errors' in result ? result.errors : [], errors, JSON.stringify(rows));
  }
});

test("the session's facts: the checkout's parameters and the browser's IP, no card", () => {
  const facts = sessionFacts({
    entityId: 'e',
    ip: '::ffff:198.51.100.7',
    parameters: { amount: '92.50', currency: 'EUR', paymentType: 'PA', 'customer.email': ' Jane@Example.com', 'billing.country': 'DE', 'risk.parameters[USER_DATA1]': 'reseller', 'risk.channelId': 'web' },
  });
  assert.deepEqual(facts, {
    paymentType: 'PA', amountMinor: 9250n, currency: 'EUR', brand: null, methodKind: 'none', canAuthenticate: true,
    email: 'jane@example.com', ip: '198.51.100.7', customerId: undefined, billingCountry: 'DE', shippingCountry: undefined,
    parameters: { USER_DATA1: 'reseller', channelId: 'web' },
  });
  assert.equal(sessionFacts({ entityId: 'e', ip: '192.0.2.1', parameters: { 'customer.ip': '192.0.2.66' } }).ip, '192.0.2.66', "the checkout's customer.ip wins");
});
