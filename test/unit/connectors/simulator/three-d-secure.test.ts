import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CHALLENGE_CHOICES,
  DIRECTORY_TEST_CARDS,
  authenticationData,
  askDirectory,
  directoryStatus,
} from '../../../../src/connectors/simulator/three-d-secure/directory.js';
import type { DirectoryAnswer, DirectoryQuery } from '../../../../src/connectors/three-d-secure.js';
import { threeDSecureSimulatorDocs } from '../../../../src/connectors/simulator/three-d-secure/docs.js';
import { COMPATIBILITY_TEST_CARDS } from '../../../../src/connectors/simulator/rules-cards.js';
import { paymentAfterChallenge } from '../../../../src/domain/three-d-secure/outcome-codes.js';

const Y: DirectoryAnswer = { kind: 'frictionless', status: 'Y' };
const A: DirectoryAnswer = { kind: 'frictionless', status: 'A' };
const CHALLENGE: DirectoryAnswer = { kind: 'challenge' };
const ERROR: DirectoryAnswer = { kind: 'error' };
const NOT_ENROLLED: DirectoryAnswer = { kind: 'not-enrolled' };
const NOT_PARTICIPATING: DirectoryAnswer = { kind: 'not-participating' };

const query = (pan: string, extra: Partial<DirectoryQuery> = {}): DirectoryQuery => ({ pan, forcedEnrolled: false, challengeRequested: false, ...extra });

/** compatibility.md, "Test system conventions", card by card. */
const CARDS: readonly [pan: string, answer: DirectoryAnswer][] = [
  ['4200000000000091', Y],
  ['4200000000000109', A],
  ['4200000000000026', Y],
  ['4200000000000059', A],
  ['5200000000000007', Y],
  ['5200000000000023', A],
  ['4200000000000042', CHALLENGE],
  ['4200000000000067', CHALLENGE],
  ['4200000000000018', CHALLENGE],
  ['4200000000000075', CHALLENGE],
  ['4012001037461114', ERROR],
  ['4012001037141112', NOT_ENROLLED],
  ['4532497088771651', NOT_PARTICIPATING],
  // The no-3DS test cards and any other card: not enrolled.
  ['4200000000000000', NOT_ENROLLED],
  ['5454545454545454', NOT_ENROLLED],
  ['377777777777770', NOT_ENROLLED],
  ['4000000000000002', NOT_ENROLLED],
];

describe('askDirectory: the test cards without forcing', () => {
  for (const [pan, answer] of CARDS) it(`${pan} → ${JSON.stringify(answer)}`, () => assert.deepEqual(askDirectory(query(pan)), answer));

  it('covers every 3DS test card of the table and every compatibility test card', () => {
    const covered = new Set(CARDS.map(([pan]) => pan));
    for (const card of DIRECTORY_TEST_CARDS) assert.ok(covered.has(card.pan), card.pan);
    for (const pan of COMPATIBILITY_TEST_CARDS) assert.ok(covered.has(pan), pan);
    assert.equal(DIRECTORY_TEST_CARDS.length, 13);
  });
});

describe('askDirectory: forcing', () => {
  const ROWS: readonly [name: string, q: DirectoryQuery, answer: DirectoryAnswer][] = [
    ['3DS2_enrolled makes a plain card enrolled, frictionless Y', query('4200000000000000', { forcedEnrolled: true }), Y],
    ['3DS2_enrolled makes the not-enrolled card enrolled', query('4012001037141112', { forcedEnrolled: true }), Y],
    ['3DS2_enrolled makes the not-participating card enrolled', query('4532497088771651', { forcedEnrolled: true }), Y],
    ['3DS2_enrolled leaves the technical-error card an error', query('4012001037461114', { forcedEnrolled: true }), ERROR],
    ['3DS2_enrolled leaves an attempt card A', query('4200000000000109', { forcedEnrolled: true }), A],
    ['3DS2_enrolled leaves a challenge card challenged', query('4200000000000042', { forcedEnrolled: true }), CHALLENGE],
    ['3DS2_enrolled + flow challenge', query('4200000000000000', { forcedEnrolled: true, forcedFlow: 'challenge' }), CHALLENGE],
    ['3DS2_enrolled + flow frictionless', query('5454545454545454', { forcedEnrolled: true, forcedFlow: 'frictionless' }), Y],
    ['flow challenge on a frictionless card', query('4200000000000091', { forcedFlow: 'challenge' }), CHALLENGE],
    ['flow challenge on an attempt card', query('5200000000000023', { forcedFlow: 'challenge' }), CHALLENGE],
    ['flow frictionless on a challenge card: Y', query('4200000000000067', { forcedFlow: 'frictionless' }), Y],
    ['flow frictionless on an attempt card keeps A', query('4200000000000059', { forcedFlow: 'frictionless' }), A],
    ['flow without 3DS2_enrolled leaves a not-enrolled card alone', query('4200000000000000', { forcedFlow: 'challenge' }), NOT_ENROLLED],
    ['flow frictionless leaves the error card alone', query('4012001037461114', { forcedFlow: 'frictionless' }), ERROR],
    ['flow challenge leaves the not-participating card alone', query('4532497088771651', { forcedFlow: 'challenge' }), NOT_PARTICIPATING],
    ['indicator 04 challenges a frictionless card', query('4200000000000091', { challengeRequested: true }), CHALLENGE],
    ['indicator 04 challenges an attempt card', query('5200000000000023', { challengeRequested: true }), CHALLENGE],
    ['indicator 04 on a challenge card', query('4200000000000018', { challengeRequested: true }), CHALLENGE],
    ['indicator 04 does not enrol a card', query('4200000000000000', { challengeRequested: true }), NOT_ENROLLED],
    ['indicator 04 + 3DS2_enrolled challenges a plain card', query('4200000000000000', { challengeRequested: true, forcedEnrolled: true }), CHALLENGE],
    ['flow frictionless wins over indicator 04', query('4200000000000091', { challengeRequested: true, forcedFlow: 'frictionless' }), Y],
    ['an exemption turns a challenge into frictionless Y', query('4200000000000075', { exemptionFlag: '01' }), Y],
    ['an exemption leaves an attempt card A', query('4200000000000109', { exemptionFlag: '02' }), A],
    ['an exemption does not undo a forced challenge', query('4200000000000042', { exemptionFlag: '03', forcedFlow: 'challenge' }), CHALLENGE],
    ['an exemption does not undo a requested challenge', query('4200000000000042', { exemptionFlag: '04', challengeRequested: true }), CHALLENGE],
    ['an exemption does not undo a requested challenge on a frictionless card', query('4200000000000091', { exemptionFlag: '01', challengeRequested: true }), CHALLENGE],
    ['an exemption does not enrol a card', query('4200000000000000', { exemptionFlag: '01' }), NOT_ENROLLED],
    ['an exemption leaves the error card an error', query('4012001037461114', { exemptionFlag: '01' }), ERROR],
  ];
  for (const [name, q, answer] of ROWS) it(name, () => assert.deepEqual(askDirectory(q), answer));

  /** The documented rules, stated once more as an independent oracle for every combination. */
  function expected(base: DirectoryAnswer, q: DirectoryQuery): DirectoryAnswer {
    const forcedIn = q.forcedEnrolled && (base.kind === 'not-enrolled' || base.kind === 'not-participating');
    const card = forcedIn ? Y : base;
    if (card.kind !== 'frictionless' && card.kind !== 'challenge') return card;
    if (q.forcedFlow) return q.forcedFlow === 'challenge' ? CHALLENGE : card.kind === 'frictionless' ? card : Y;
    if (q.challengeRequested) return CHALLENGE;
    return card.kind === 'challenge' && q.exemptionFlag ? Y : card;
  }

  it('every card under every combination of the four forcing inputs', () => {
    let count = 0;
    for (const [pan, base] of CARDS) {
      for (const forcedEnrolled of [false, true]) {
        for (const forcedFlow of [undefined, 'challenge', 'frictionless'] as const) {
          for (const challengeRequested of [false, true]) {
            for (const exemptionFlag of [undefined, '01']) {
              const q: DirectoryQuery = { pan, forcedEnrolled, forcedFlow, challengeRequested, exemptionFlag };
              assert.deepEqual(askDirectory(q), expected(base, q), JSON.stringify(q));
              count += 1;
            }
          }
        }
      }
    }
    assert.equal(count, CARDS.length * 24);
  });
});

describe('directoryStatus', () => {
  const ROWS: readonly [DirectoryAnswer, string | undefined][] = [[Y, 'Y'], [A, 'A'], [CHALLENGE, undefined], [ERROR, 'U'], [NOT_ENROLLED, 'N'], [NOT_PARTICIPATING, 'U']];
  for (const [answer, status] of ROWS) it(`${answer.kind} → ${status}`, () => assert.equal(directoryStatus(answer), status));
});

describe('authenticationData', () => {
  const IDS = { dsTransactionId: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b', acsTransactionId: '2a7b4e6c-8f2b-4f0e-9b2a-1c3d5e7f9a0b' };
  const ECI_ROWS: readonly [scheme: string, pan: string, status: 'Y' | 'A' | 'N' | 'U' | 'R', eci: string][] = [
    ['Visa', '4200000000000091', 'Y', '05'], ['Visa', '4200000000000109', 'A', '06'], ['Visa', '4200000000000042', 'N', '07'],
    ['Visa', '4200000000000042', 'U', '07'], ['Visa', '4200000000000042', 'R', '07'],
    ['Mastercard', '5200000000000007', 'Y', '02'], ['Mastercard', '5200000000000023', 'A', '01'], ['Mastercard', '5454545454545454', 'N', '00'],
    ['Mastercard', '5454545454545454', 'U', '00'], ['Mastercard', '5454545454545454', 'R', '00'],
    ['Maestro (Mastercard Identity Check)', '6759649826438453', 'Y', '02'],
    ['Amex', '377777777777770', 'Y', '05'], ['Amex', '377777777777770', 'A', '06'], ['Amex', '377777777777770', 'N', '07'],
    ['other scheme (JCB)', '3530111333300000', 'Y', '05'], ['unknown range', '9999999999999995', 'A', '06'],
  ];
  for (const [scheme, pan, status, eci] of ECI_ROWS) {
    it(`${scheme} ${status} → ECI ${eci}`, () => assert.equal(authenticationData(pan, status, IDS, false).eci, eci));
  }

  it('a 28-character base64 CAVV for Y and A only', () => {
    for (const status of ['Y', 'A'] as const) {
      const data = authenticationData('4200000000000091', status, IDS, false);
      assert.match(data.verificationId ?? '', /^[A-Za-z0-9+/]{27}=$/);
    }
    for (const status of ['N', 'U', 'R'] as const) assert.equal(authenticationData('4200000000000091', status, IDS, true).verificationId, undefined);
  });

  it('the whole answer of a frictionless Y', () => {
    assert.deepEqual(authenticationData('4200000000000091', 'Y', IDS, false), {
      status: 'Y',
      eci: '05',
      verificationId: authenticationData('4200000000000091', 'Y', IDS, false).verificationId,
      ...IDS,
      version: '2.2.0',
      challengeMandatedIndicator: 'N',
    });
  });

  it('a reason for N and R, the challenge flag, the version', () => {
    assert.equal(authenticationData('4200000000000042', 'N', IDS, true).transactionStatusReason, '01');
    assert.equal(authenticationData('4200000000000042', 'R', IDS, true).transactionStatusReason, '11');
    assert.equal(authenticationData('4200000000000042', 'U', IDS, true).transactionStatusReason, undefined);
    assert.equal(authenticationData('4200000000000042', 'Y', IDS, true).challengeMandatedIndicator, 'Y');
    assert.equal(authenticationData('4200000000000042', 'Y', IDS, true).version, '2.2.0');
  });

  it('deterministic: the same inputs give the same answer', () => {
    for (const status of ['Y', 'A', 'N', 'U', 'R'] as const) {
      assert.deepEqual(authenticationData('5200000000000007', status, IDS, true), authenticationData('5200000000000007', status, { ...IDS }, true));
    }
  });

  it('the CAVV comes from dsTransactionId, never from the card number', () => {
    const visa = authenticationData('4200000000000091', 'Y', IDS, false).verificationId;
    assert.equal(authenticationData('4200000000000026', 'Y', IDS, false).verificationId, visa, 'another card, same ids: same CAVV');
    assert.equal(authenticationData('4200000000000091', 'Y', { ...IDS, acsTransactionId: 'other' }, false).verificationId, visa, 'the ACS id plays no part');
    assert.notEqual(authenticationData('4200000000000091', 'Y', { ...IDS, dsTransactionId: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4c' }, false).verificationId, visa);
    assert.notEqual(authenticationData('4200000000000091', 'A', IDS, false).verificationId, visa, 'an attempt differs from a success');
    assert.ok(!JSON.stringify(authenticationData('4200000000000091', 'Y', IDS, false)).includes('4200000000000091'));
  });
});

describe('CHALLENGE_CHOICES', () => {
  it('one button per outcome: Y, N, U, R, cancel, each described', () => {
    assert.deepEqual(CHALLENGE_CHOICES.map((choice) => choice.value), ['Y', 'N', 'U', 'R', 'cancel']);
    for (const choice of CHALLENGE_CHOICES) assert.ok(choice.description.length > 10, choice.value);
  });
  it('each choice gives its own status; cancel is N', () => {
    for (const choice of CHALLENGE_CHOICES) assert.equal(choice.status, choice.value === 'cancel' ? 'N' : choice.value);
  });
});

describe('threeDSecureSimulatorDocs', () => {
  const docs = threeDSecureSimulatorDocs();
  it('names every test card, forcing parameter, challenge choice and requirement mode', () => {
    for (const card of DIRECTORY_TEST_CARDS) assert.ok(docs.includes(`\`${card.pan}\``), card.pan);
    for (const name of ['3DS2_enrolled', 'customParameters[3DS2_flow]=challenge', 'customParameters[3DS2_flow]=frictionless', 'challengeIndicator=04', 'exemptionFlag']) assert.ok(docs.includes(name), name);
    for (const choice of CHALLENGE_CHOICES) assert.ok(docs.includes(`| \`${choice.value}\` |`), choice.value);
    for (const mode of ['`never`', '`if-enrolled`', '`always`', '`above:50.00:EUR`']) assert.ok(docs.includes(mode), mode);
  });
  it('shows the codes the rules give', () => {
    for (const code of ['000.400.109', '000.400.101', '100.390.112', '800.400.200', '100.390.114', '100.390.107', '100.390.124', '000.400.110']) {
      assert.ok(docs.includes(`\`${code}\``), code);
    }
    const uRow = docs.split('\n').find((line) => line.startsWith('| `U` |'));
    assert.ok(uRow?.includes(`\`${(paymentAfterChallenge('U', true) as { code: string }).code}\``));
    assert.ok(uRow?.includes('goes on without 3-D Secure'));
  });
  it('is stable markdown: tables with the same number of cells a row', () => {
    for (const block of docs.split('\n\n').filter((part) => part.startsWith('|'))) {
      const widths = block.split('\n').map((line) => line.replace(/\\\|/g, '').split('|').length);
      assert.equal(new Set(widths).size, 1, block.slice(0, 80));
    }
    assert.equal(threeDSecureSimulatorDocs(), docs);
  });
});
