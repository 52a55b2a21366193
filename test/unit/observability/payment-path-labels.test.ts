import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callConnector } from '../../../src/connectors/normalize-outcome.js';
import type { DirectoryAnswer } from '../../../src/domain/three-d-secure/answers.js';
import { brandLabel } from '../../../src/observability/brand-label.js';
import type { ConnectorCallOutcome, ThreeDSecureOutcome } from '../../../src/observability/observer.js';
import { challengeOutcome, directoryOutcome } from '../../../src/operations/three-d-secure/observe-authentication.js';

/** What a connector answered (or did) → how the call is counted. */
const CALLS: ReadonlyArray<readonly [string, () => Promise<unknown>, ConnectorCallOutcome]> = [
  ['success', async () => ({ kind: 'success', code: '000.100.110', resultDetails: {} }), 'success'],
  ['declined', async () => ({ kind: 'declined', code: '800.100.152', resultDetails: {} }), 'declined'],
  ['pending', async () => ({ kind: 'pending', code: '000.200.000', resultDetails: {} }), 'pending'],
  ['unknown: the acquirer did not answer (900.100.300)', async () => ({ kind: 'unknown', code: '900.100.300', resultDetails: {} }), 'timeout'],
  ['unknown for another reason', async () => ({ kind: 'unknown', code: '900.100.200', resultDetails: {} }), 'unknown'],
  ['nothing processed (a technical refusal)', async () => ({ kind: 'declined', code: '900.100.400', resultDetails: {}, notProcessed: true }), 'error'],
  ['a code outside the catalogue', async () => ({ kind: 'success', code: '999.999.999x', resultDetails: {} }), 'error'],
  ['success with a decline code', async () => ({ kind: 'success', code: '800.100.152', resultDetails: {} }), 'error'],
  ['not an object', async () => 'OK', 'error'],
  ['a throw', async () => { throw new Error('socket hang up'); }, 'error'],
  ['no answer within the timeout', () => new Promise(() => undefined), 'timeout'],
];

describe('connector calls are counted by what came of them', () => {
  for (const [name, call, expected] of CALLS) {
    it(`${name} → ${expected}`, async () => {
      const reports: [ConnectorCallOutcome, number][] = [];
      await callConnector(call, { timeoutMs: 20, report: (outcome, seconds) => reports.push([outcome, seconds]) });
      assert.equal(reports.length, 1);
      assert.equal(reports[0]![0], expected);
      assert.ok(reports[0]![1] >= 0 && reports[0]![1] < 10);
    });
  }
});

describe('3-D Secure outcomes, once per authentication', () => {
  const DIRECTORY: ReadonlyArray<readonly [DirectoryAnswer, ThreeDSecureOutcome | undefined]> = [
    [{ kind: 'frictionless', status: 'Y' }, 'frictionless'],
    [{ kind: 'frictionless', status: 'A' }, 'attempted'],
    [{ kind: 'not-enrolled' }, 'not_enrolled'],
    [{ kind: 'not-participating' }, 'not_enrolled'],
    [{ kind: 'error' }, 'error'],
    [{ kind: 'unavailable' }, 'error'],
    [{ kind: 'failed', status: 'N' }, 'failed'],
    [{ kind: 'failed', status: 'R' }, 'failed'],
    // Counted at the shopper's answer instead.
    [{ kind: 'challenge' }, undefined],
  ];
  for (const [answer, expected] of DIRECTORY) it(`directory ${JSON.stringify(answer)} → ${expected}`, () => assert.equal(directoryOutcome(answer), expected));
  const CHALLENGE = [['Y', 'challenge'], ['U', 'error'], ['N', 'failed'], ['R', 'failed'], ['cancel', 'failed'], ['expired', 'failed'], ['abandoned', 'failed']] as const;
  for (const [choice, expected] of CHALLENGE) it(`challenge ${choice} → ${expected}`, () => assert.equal(challengeOutcome(choice), expected));
});

describe('brand labels stay a bounded set', () => {
  it('keeps the brands the gateway knows and folds the rest into other', () => {
    assert.equal(brandLabel('VISA'), 'VISA');
    assert.equal(brandLabel('PAYPAL'), 'PAYPAL');
    assert.equal(brandLabel('DIRECTDEBIT_SEPA'), 'DIRECTDEBIT_SEPA');
    assert.equal(brandLabel('MYSTORECARD'), 'other');
    assert.equal(brandLabel('visa'), 'other');
    assert.equal(brandLabel(undefined), 'none');
    assert.equal(brandLabel(''), 'none');
    // Not even a brand's form (a refused request's paymentBrand): none.
    assert.equal(brandLabel('VISA<script>'), 'none');
    assert.equal(brandLabel('X'.repeat(33)), 'none');
  });
});
