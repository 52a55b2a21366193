import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChallengeChoice, DirectoryAnswer } from '../../../../src/domain/three-d-secure/answers.js';
import {
  AUTHENTICATION_CODES,
  LIVE_SUCCESS_CODE,
  paymentAfterChallenge,
  paymentAfterChallengeResult,
  paymentAfterDirectory,
  standaloneCode,
  type AuthenticationEnd,
} from '../../../../src/domain/three-d-secure/outcome-codes.js';
import { isPendingCode, isSuccessCode, resultCode } from '../../../../src/results/catalogue.js';

const SHIFT: AuthenticationEnd = { kind: 'proceed', withLiabilityShift: true };
const WITHOUT: AuthenticationEnd = { kind: 'proceed', withLiabilityShift: false };
const refuse = (code: string): AuthenticationEnd => ({ kind: 'refuse', code });

/** The published groups (compatibility.md) the codes are meant to fall in. */
const THREE_D_SECURE_GROUP = /^(800\.400\.2|100\.390)/;
const REJECTED_3DS_AND_RISK = /^(000\.400\.[1][0-9][1-9]|000\.400\.2)/;

describe('paymentAfterDirectory', () => {
  const ROWS: readonly [answer: DirectoryAnswer, required: AuthenticationEnd | { kind: 'challenge' }, notRequired: AuthenticationEnd | { kind: 'challenge' }][] = [
    [{ kind: 'frictionless', status: 'Y' }, SHIFT, SHIFT],
    [{ kind: 'frictionless', status: 'A' }, SHIFT, SHIFT],
    [{ kind: 'challenge' }, { kind: 'challenge' }, { kind: 'challenge' }],
    [{ kind: 'not-enrolled' }, refuse('000.400.109'), WITHOUT],
    [{ kind: 'not-participating' }, refuse('000.400.101'), WITHOUT],
    [{ kind: 'error' }, refuse('100.390.112'), refuse('100.390.112')],
    // A real 3DS server's answers (connectors/emv3ds-server/ares.ts).
    [{ kind: 'failed', status: 'N' }, refuse('800.400.200'), refuse('800.400.200')],
    [{ kind: 'failed', status: 'R' }, refuse('100.390.114'), refuse('100.390.114')],
    [{ kind: 'unavailable' }, refuse('100.390.112'), WITHOUT],
  ];
  for (const [answer, required, notRequired] of ROWS) {
    it(`${JSON.stringify(answer)}: required → ${JSON.stringify(required)}, not required → ${JSON.stringify(notRequired)}`, () => {
      assert.deepEqual(paymentAfterDirectory(answer, true), required);
      assert.deepEqual(paymentAfterDirectory(answer, false), notRequired);
    });
  }
});

describe('paymentAfterChallenge', () => {
  const ROWS: readonly [choice: ChallengeChoice, required: AuthenticationEnd, notRequired: AuthenticationEnd][] = [
    ['Y', SHIFT, SHIFT],
    ['N', refuse('800.400.200'), refuse('800.400.200')],
    ['R', refuse('100.390.114'), refuse('100.390.114')],
    ['U', refuse('100.390.107'), WITHOUT],
    ['cancel', refuse('100.390.124'), refuse('100.390.124')],
  ];
  for (const [choice, required, notRequired] of ROWS) {
    it(`${choice}: required → ${JSON.stringify(required)}, not required → ${JSON.stringify(notRequired)}`, () => {
      assert.deepEqual(paymentAfterChallenge(choice, true), required);
      assert.deepEqual(paymentAfterChallenge(choice, false), notRequired);
    });
  }
});

describe('standaloneCode', () => {
  const ROWS: readonly [name: string, end: Parameters<typeof standaloneCode>[0], successCode: string | undefined, code: string][] = [
    ['frictionless: authentication successful (frictionless flow)', 'frictionless', undefined, '000.400.110'],
    ['frictionless ignores the system success code', 'frictionless', '000.100.110', '000.400.110'],
    ['challenge success, live system', 'challenge-success', undefined, '000.000.000'],
    ['challenge success, simulator', 'challenge-success', '000.100.110', '000.100.110'],
    ['a refusal keeps its code', refuse('800.400.200'), undefined, '800.400.200'],
    ['not enrolled', refuse('000.400.109'), '000.100.110', '000.400.109'],
    ['proceeding with a liability shift is a success', SHIFT, '000.100.110', '000.100.110'],
    ['proceeding without one: authentication unavailable', WITHOUT, undefined, '000.400.101'],
  ];
  for (const [name, end, successCode, code] of ROWS) {
    it(name, () => assert.equal(standaloneCode(end, successCode), code));
  }
  it('the live success code by default', () => assert.equal(LIVE_SUCCESS_CODE, '000.000.000'));
});

describe('every chosen code exists and is classified as intended', () => {
  const REJECTIONS = ['notEnrolled', 'notParticipating', 'technicalError', 'notAuthenticated', 'rejectedByIssuer', 'unavailable', 'cancelled'] as const;
  for (const key of REJECTIONS) {
    const code = AUTHENTICATION_CODES[key];
    it(`${key} ${code}: in the catalogue, neither success nor pending`, () => {
      resultCode(code);
      assert.equal(isSuccessCode(code), false);
      assert.equal(isPendingCode(code), false);
    });
  }
  it('authentication failures are in the 3D Secure group', () => {
    for (const key of ['technicalError', 'notAuthenticated', 'rejectedByIssuer', 'unavailable', 'cancelled'] as const) {
      assert.match(AUTHENTICATION_CODES[key], THREE_D_SECURE_GROUP, key);
    }
  });
  it('no-authentication-possible codes are in "Rejected, 3DS and risk checks"', () => {
    for (const key of ['notEnrolled', 'notParticipating'] as const) assert.match(AUTHENTICATION_CODES[key], REJECTED_3DS_AND_RISK, key);
  });
  it('the frictionless standalone code and the success codes are successes', () => {
    for (const code of [AUTHENTICATION_CODES.frictionlessSuccess, LIVE_SUCCESS_CODE, '000.100.110']) {
      resultCode(code);
      assert.equal(isSuccessCode(code), true, code);
    }
  });
});

describe('a real 3DS server\'s challenge: the RReq alone decides', () => {
  const VALUE = 'AJkBBkhgQQAAAE4gSEJydQAAAAA=';
  const rows: ReadonlyArray<readonly [string, Parameters<typeof paymentAfterChallengeResult>[0], AuthenticationEnd]> = [
    ['Y with eci and authenticationValue', { transStatus: 'Y', eci: '05', authenticationValue: VALUE }, { kind: 'proceed', withLiabilityShift: true }],
    ['A with eci and authenticationValue', { transStatus: 'A', eci: '06', authenticationValue: VALUE }, { kind: 'proceed', withLiabilityShift: true }],
    ['Y without authenticationValue', { transStatus: 'Y', eci: '05' }, { kind: 'refuse', code: AUTHENTICATION_CODES.technicalError }],
    ['Y without eci', { transStatus: 'Y', authenticationValue: VALUE }, { kind: 'refuse', code: AUTHENTICATION_CODES.technicalError }],
    ['N', { transStatus: 'N', eci: '07' }, { kind: 'refuse', code: AUTHENTICATION_CODES.notAuthenticated }],
    ['N with challengeCancel', { transStatus: 'N', eci: '07', challengeCancel: '01' }, { kind: 'refuse', code: AUTHENTICATION_CODES.cancelled }],
    ['R', { transStatus: 'R' }, { kind: 'refuse', code: AUTHENTICATION_CODES.rejectedByIssuer }],
    ['U', { transStatus: 'U' }, { kind: 'refuse', code: AUTHENTICATION_CODES.unavailable }],
    ['no RReq', undefined, { kind: 'refuse', code: AUTHENTICATION_CODES.technicalError }],
  ];
  for (const [name, result, expected] of rows) {
    it(`${name} → ${expected.kind === 'refuse' ? expected.code : 'proceed with liability shift'}`, () => {
      assert.deepEqual(paymentAfterChallengeResult(result), expected);
    });
  }
});
