import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPendingCode, isSuccessCode, resultCodes } from '../../../src/results/catalogue.js';
import { DECLINE_KEYS, DECLINE_TEXTS } from '../../../widget/src/i18n/decline-texts.js';
import { labelsOf } from '../../../widget/src/i18n/index.js';
import { DECLINE_FIELD, DECLINE_MESSAGE, declineReasonOf, specificReasonOf, type DeclineReason } from '../../../widget/src/rules/decline-reason.js';
import { directionOf, mergeLabels, WIDGET_LOCALES } from '../../../widget/src/rules/locale.js';
import { outcomeOf } from '../../../widget/src/rules/outcome.js';

/** What the shopper is told for a result code (docs/widget.md, "When a payment is declined"); a row per rule. */
const CASES: [code: string, reason: DeclineReason | undefined, why: string][] = [
  ['000.100.110', undefined, 'approved (integrator test mode)'],
  ['000.000.000', undefined, 'approved'],
  ['000.400.000', undefined, 'approved, to review'],
  ['000.400.110', undefined, '3-D Secure frictionless: approved'],
  ['000.200.000', undefined, 'pending'],
  ['800.400.500', undefined, 'pending (non-instant payment)'],
  ['100.400.500', undefined, 'pending (external risk)'],
  ['', undefined, 'no code'],
  ['garbage', undefined, 'not a code'],
  ['800.100.203', 'insufficientFunds', 'Insufficient Funds (simulator card 4000000000009995, amount 5.06)'],
  ['800.100.155', 'insufficientFunds', 'amount exceeds credit'],
  ['100.550.311', 'insufficientFunds', 'exceeding account balance'],
  ['800.100.153', 'cvv', 'invalid CVV (simulator card.cvv 999)'],
  ['800.100.192', 'cvv', 'invalid CVV, amount reserved'],
  ['100.100.601', 'cvv', 'invalid CVV/brand combination'],
  ['800.100.157', 'expiry', 'wrong expiry date (simulator card 4000000000000069)'],
  ['100.100.303', 'expiry', 'card expired'],
  ['100.100.201', 'expiry', 'invalid month'],
  ['800.100.151', 'cardNumber', 'invalid card (simulator card 4000000000000010)'],
  ['100.100.101', 'cardNumber', 'invalid card number'],
  ['100.100.700', 'cardNumber', 'invalid number/brand combination'],
  ['800.100.169', 'cardNumber', 'card type not processed'],
  ['800.100.201', 'account', 'account or bank details incorrect (simulator IBAN …0004)'],
  ['800.100.202', 'account', 'account closed'],
  ['100.200.104', 'account', 'invalid account number format'],
  ['800.100.100', 'bank', 'declined for unknown reason (issuer: do not honour)'],
  ['800.100.152', 'bank', 'declined by authorization system (simulator amount 5.05)'],
  ['800.100.159', 'bank', 'stolen card: said as the bank’s no'],
  ['800.100.165', 'bank', 'lost card: said as the bank’s no'],
  ['800.100.158', 'bank', 'suspecting manipulation: said as the bank’s no'],
  ['800.100.162', 'bank', 'limit exceeded'],
  ['800.100.171', 'bank', 'pick up card'],
  ['800.100.200', 'bank', 'refer to payer'],
  ['100.390.114', 'authentication', '3-D Secure: issuer rejects authentication'],
  ['100.390.124', 'authentication', '3-D Secure cancelled or abandoned'],
  ['000.400.101', 'authentication', '3-D Secure: card not participating (a 000 code the gateway declines)'],
  ['000.400.106', 'authentication', 'invalid PARes'],
  ['800.400.200', 'authentication', 'invalid payer authentication'],
  ['100.380.401', 'authentication', 'user authentication failed'],
  ['100.400.319', 'risk', 'declined by the risk system (a hidden brand)'],
  ['100.400.100', 'risk', 'very bad rating'],
  ['100.100.701', 'risk', 'suspecting fraud'],
  ['800.400.100', 'risk', 'AVS check failed (simulator postcode 00009)'],
  ['800.300.401', 'risk', 'bin blacklisted'],
  ['800.200.220', 'risk', 'blacklisted (fraudulent transaction)'],
  ['800.120.101', 'risk', 'too many transactions per account'],
  ['800.300.500', 'risk', 'temporarily blacklisted: too many wrong CVVs (retrying does not help)'],
  ['900.100.100', 'temporary', 'communication error with the acquirer'],
  ['900.100.600', 'temporary', 'acquirer down'],
  ['900.100.301', 'temporary', 'timed out and reversed'],
  ['800.800.800', 'temporary', 'payment system unavailable'],
  ['800.100.176', 'temporary', 'account temporarily not available'],
  ['800.700.100', 'temporary', 'the checkout’s other payment is being processed'],
  ['800.120.100', 'temporary', 'throttled'],
  ['100.400.325', 'temporary', 'external risk system not available'],
  ['100.380.501', 'temporary', 'risk management timeout'],
  ['999.999.888', 'temporary', 'database unavailable'],
  ['000.400.200', 'temporary', 'risk check communication error'],
  ['800.100.167', 'declined', 'referencing transaction does not match'],
  ['800.100.174', 'declined', 'invalid amount'],
  ['700.500.001', 'declined', 'the checkout’s 10 attempts are used up'],
  ['100.396.101', 'declined', 'cancelled by user'],
  ['000.400.030', 'declined', 'partially failed'],
];

describe('widget: why a payment was declined, by its result code', () => {
  for (const [code, reason, why] of CASES) it(`${code || '(none)'} ${why} → ${reason ?? 'no decline'}`, () => assert.equal(declineReasonOf(code), reason));

  it('every code of the catalogue: a decline exactly when it is neither success nor pending', () => {
    for (const code of resultCodes.keys()) {
      const decline = !isSuccessCode(code) && !isPendingCode(code);
      assert.equal(declineReasonOf(code) !== undefined, decline, code);
    }
  });

  it('every row of the table is reached by some catalogue code (no dead rule)', () => {
    const reached = new Set([...resultCodes.keys()].map(declineReasonOf));
    for (const reason of Object.keys(DECLINE_MESSAGE)) assert.ok(reached.has(reason as DeclineReason), reason);
  });

  it('"declined" alone is not specific: a refused request keeps the generic text', () => {
    assert.equal(specificReasonOf('800.100.167'), undefined);
    assert.equal(specificReasonOf('800.700.100'), 'temporary');
    assert.equal(specificReasonOf('000.100.110'), undefined);
  });

  it('only the reasons a shopper can correct in a field name one', () => assert.deepEqual(DECLINE_FIELD, { cvv: 'cvv', expiry: 'expiry', cardNumber: 'number', account: 'iban' }));
});

describe('widget: the decline messages in the 25 languages', () => {
  const english = DECLINE_TEXTS['en']!;
  for (const locale of WIDGET_LOCALES) {
    it(`${locale}: every message, translated, short`, () => {
      const texts = DECLINE_TEXTS[locale];
      assert.ok(texts, `${locale} has decline texts`);
      assert.deepEqual(Object.keys(texts).sort(), [...DECLINE_KEYS].sort());
      const labels = labelsOf(locale);
      for (const key of DECLINE_KEYS) {
        assert.ok(texts[key].trim(), `${locale} ${key}`);
        assert.equal(labels[key], texts[key], `labelsOf(${locale}) carries ${key}`);
        assert.ok(texts[key].length <= 120, `${locale} ${key} is short enough for a 375 px widget: ${texts[key].length}`);
        if (locale !== 'en') assert.notEqual(texts[key], english[key], `${locale} translates ${key}`);
      }
      assert.equal(new Set(Object.values(texts)).size, DECLINE_KEYS.length, `${locale}: ten different messages`);
    });
  }
  it('Arabic is written in Arabic script, right to left', () => {
    assert.equal(directionOf('ar'), 'rtl');
    for (const key of DECLINE_KEYS) assert.match(DECLINE_TEXTS['ar']![key], /[\u0600-\u06ff]/, key);
  });
  it('each reason has its message', () => {
    for (const key of Object.values(DECLINE_MESSAGE)) assert.ok((DECLINE_KEYS as readonly string[]).includes(key), key);
  });
  it('a merchant replaces one through errorMessages, as the other error texts', () => {
    const labels = mergeLabels(labelsOf('de'), undefined, { declineInsufficientFunds: 'Bitte eine andere Karte.', declineNope: 'ignored', declineBank: 7 });
    assert.equal(labels.declineInsufficientFunds, 'Bitte eine andere Karte.');
    assert.equal(labels.declineBank, DECLINE_TEXTS['de']!.declineBank);
    assert.equal((labels as Record<string, string>)['declineNope'], undefined);
  });
});

describe('widget: a declined payment in each layout', () => {
  const declined = { id: 'p1', result: { code: '800.100.203', description: 'Insufficient Funds' } };
  it('forms (OPPWA): the result page, as before', () => assert.deepEqual(outcomeOf(400, declined), { kind: 'return' }));
  it('tabs and accordion: shown in the widget with its reason', () => assert.deepEqual(outcomeOf(400, declined, true), { kind: 'declined', reason: 'insufficientFunds', code: '800.100.203' }));
  it('approved and pending go to the result page in every layout', () => {
    assert.equal(outcomeOf(200, { id: 'p1', result: { code: '000.100.110' } }, true).kind, 'return');
    assert.equal(outcomeOf(200, { id: 'p1', result: { code: '000.200.000' } }, true).kind, 'return');
  });
  it('a redirect is followed in every layout', () => {
    assert.equal(outcomeOf(200, { id: 'p1', result: { code: '000.200.000' }, redirect: { url: 'https://gw/acs', method: 'GET' } }, true).kind, 'redirect');
  });
  it('a refused request carries its code (for a message that says more)', () => {
    assert.deepEqual(outcomeOf(400, { result: { code: '800.700.100', description: 'busy' } }, false), { kind: 'failed', message: 'busy', code: '800.700.100' });
    assert.equal(outcomeOf(400, { result: { code: '100.400.319', parameterErrors: [{ name: 'paymentBrand', message: 'not offered' }] } }, true).kind, 'field-errors');
  });
});
