import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  STANDING_INSTRUCTION_VIOLATION_CODE,
  planAuthentication,
  standingInstructionViolations,
  type AuthenticationFacts,
  type AuthenticationPlan,
} from '../../../../src/domain/three-d-secure/plan.js';
import type { ThreeDSecureRequirement } from '../../../../src/domain/three-d-secure/requirement.js';
import { resultCode } from '../../../../src/results/catalogue.js';

const NEVER: ThreeDSecureRequirement = { mode: 'never' };
const IF_ENROLLED: ThreeDSecureRequirement = { mode: 'if-enrolled' };
const ALWAYS: ThreeDSecureRequirement = { mode: 'always' };
const ABOVE_50_EUR: ThreeDSecureRequirement = { mode: 'above', amountMinor: 5000n, currency: 'EUR' };

const card = (facts: Partial<AuthenticationFacts> = {}): AuthenticationFacts => ({
  paymentType: 'DB',
  methodKind: 'card',
  amountMinor: 9200n,
  currency: 'EUR',
  externalResult: false,
  threeDSecureFieldsSent: [],
  forcedEnrolled: false,
  ...facts,
});

const EXTERNAL = { externalResult: true, threeDSecureFieldsSent: ['threeDSecure.eci', 'threeDSecure.verificationId', 'threeDSecure.authenticationStatus'] };
const authenticate = (required: boolean, extra: Partial<Extract<AuthenticationPlan, { kind: 'authenticate' }>> = {}): AuthenticationPlan => ({
  kind: 'authenticate', required, challengeRequested: false, ...extra,
});

describe('planAuthentication', () => {
  const ROWS: readonly [name: string, requirement: ThreeDSecureRequirement, facts: AuthenticationFacts, plan: AuthenticationPlan][] = [
    // The requirement modes, for a card DB.
    ['never: no authentication', NEVER, card(), { kind: 'none', reason: 'policy-never' }],
    ['never wins over the forcing parameters', NEVER, card({ forcedEnrolled: true, forcedFlow: 'challenge', challengeIndicator: '04' }), { kind: 'none', reason: 'policy-never' }],
    ['if-enrolled: authenticate, not required', IF_ENROLLED, card(), authenticate(false)],
    ['always: authenticate, required', ALWAYS, card(), authenticate(true)],
    ['always, PA as well', ALWAYS, card({ paymentType: 'PA' }), authenticate(true)],
    ['above 50 EUR, below', ABOVE_50_EUR, card({ amountMinor: 4999n }), authenticate(false)],
    ['above 50 EUR, at the threshold', ABOVE_50_EUR, card({ amountMinor: 5000n }), authenticate(false)],
    ['above 50 EUR, over', ABOVE_50_EUR, card({ amountMinor: 5001n }), authenticate(true)],
    ['above 50 EUR, another currency', ABOVE_50_EUR, card({ amountMinor: 100n, currency: 'USD' }), authenticate(true)],
    // What is not authenticated.
    ['CD: a credit never authenticates', ALWAYS, card({ paymentType: 'CD' }), { kind: 'none', reason: 'credit' }],
    ['CD even with external results', ALWAYS, card({ paymentType: 'CD', ...EXTERNAL }), { kind: 'none', reason: 'credit' }],
    ['token account: not a card', ALWAYS, card({ methodKind: 'tokenAccount' }), { kind: 'none', reason: 'not-a-card' }],
    ['decrypted wallet: not a card', ALWAYS, card({ methodKind: 'walletDecrypted' }), { kind: 'none', reason: 'not-a-card' }],
    ['wallet token: not a card', ALWAYS, card({ methodKind: 'walletToken' }), { kind: 'none', reason: 'not-a-card' }],
    ['bank account: not a card', IF_ENROLLED, card({ methodKind: 'bankAccount' }), { kind: 'none', reason: 'not-a-card' }],
    ['virtual account: not a card', IF_ENROLLED, card({ methodKind: 'virtualAccount' }), { kind: 'none', reason: 'not-a-card' }],
    // External results.
    ['external result: passthrough', IF_ENROLLED, card(EXTERNAL), { kind: 'passthrough' }],
    ['external result: passthrough even when the entity says never', NEVER, card(EXTERNAL), { kind: 'passthrough' }],
    ['external result: passthrough when always', ALWAYS, card(EXTERNAL), { kind: 'passthrough' }],
    ['external result on a token account: passthrough', ALWAYS, card({ methodKind: 'tokenAccount', ...EXTERNAL }), { kind: 'passthrough' }],
    // Standing instructions.
    ['INITIAL CIT authenticates', ALWAYS, card({ standingInstruction: { mode: 'INITIAL', source: 'CIT' } }), authenticate(true)],
    ['INITIAL (source absent: CIT) authenticates', IF_ENROLLED, card({ standingInstruction: { mode: 'INITIAL' } }), authenticate(false)],
    ['REPEATED CIT (shopper present) authenticates', ALWAYS, card({ standingInstruction: { mode: 'REPEATED', source: 'CIT' } }), authenticate(true)],
    ['REPEATED MIT: no shopper, no authentication', ALWAYS, card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' } }), { kind: 'none', reason: 'merchant-initiated' }],
    ['REPEATED (source absent: MIT)', ALWAYS, card({ standingInstruction: { mode: 'REPEATED' } }), { kind: 'none', reason: 'merchant-initiated' }],
    ['MIT (mode absent: REPEATED)', ALWAYS, card({ standingInstruction: { source: 'MIT' } }), { kind: 'none', reason: 'merchant-initiated' }],
    ['empty standing instruction: a CIT', ALWAYS, card({ standingInstruction: {} }), authenticate(true)],
    // 3RI (threeDSecure.threeRIInd or channel 03): the merchant authenticates without the shopper.
    ['REPEATED MIT asking for a 3RI: authenticate, requestor initiated', ALWAYS, card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' }, threeRiAsked: true }), authenticate(true, { requestorInitiated: true })],
    ['3RI not required where the entity does not require', IF_ENROLLED, card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' }, threeRiAsked: true }), authenticate(false, { requestorInitiated: true })],
    ['3RI without a standing instruction (a split shipment)', ALWAYS, card({ threeRiAsked: true }), authenticate(true, { requestorInitiated: true })],
    ['3RI: never wins', NEVER, card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' }, threeRiAsked: true }), { kind: 'none', reason: 'policy-never' }],
    ['3RI: an external result passes through', ALWAYS, card({ threeRiAsked: true, ...EXTERNAL }), { kind: 'passthrough' }],
    ['3RI: a credit is never authenticated', ALWAYS, card({ paymentType: 'CD', threeRiAsked: true }), { kind: 'none', reason: 'credit' }],
    // Challenge and exemption requests are recorded.
    ['challengeIndicator 04: challenge requested', IF_ENROLLED, card({ challengeIndicator: '04' }), authenticate(false, { challengeRequested: true, challengeIndicator: '04' })],
    ['challengeIndicator 03 is a preference, not a mandate', IF_ENROLLED, card({ challengeIndicator: '03' }), authenticate(false, { challengeIndicator: '03' })],
    ['challengeIndicator 02 (no challenge) recorded', ALWAYS, card({ challengeIndicator: '02' }), authenticate(true, { challengeIndicator: '02' })],
    ['exemption flag recorded', ALWAYS, card({ exemptionFlag: '01' }), authenticate(true, { exemptionFlag: '01' })],
    ['exemption flag and indicator recorded together', ALWAYS, card({ exemptionFlag: '02', challengeIndicator: '05' }), authenticate(true, { exemptionFlag: '02', challengeIndicator: '05' })],
    ['forcing parameters do not change the plan (the directory reads them)', IF_ENROLLED, card({ forcedEnrolled: true, forcedFlow: 'challenge' }), authenticate(false)],
  ];
  for (const [name, requirement, facts, plan] of ROWS) {
    it(name, () => assert.deepEqual(planAuthentication(requirement, facts), plan));
  }
});

describe('standingInstructionViolations', () => {
  const ROWS: readonly [name: string, facts: AuthenticationFacts, offending: readonly string[]][] = [
    ['no standing instruction, 3DS data: fine', card(EXTERNAL), []],
    ['INITIAL CIT with external 3DS results: fine', card({ standingInstruction: { mode: 'INITIAL', source: 'CIT' }, ...EXTERNAL }), []],
    ['INITIAL CIT with an exemption request: fine', card({ standingInstruction: { mode: 'INITIAL', source: 'CIT' }, threeDSecureFieldsSent: ['threeDSecure.challengeIndicator', 'threeDSecure.exemptionFlag'] }), []],
    ['REPEATED CIT with 3DS data: not this rule', card({ standingInstruction: { mode: 'REPEATED', source: 'CIT' }, ...EXTERNAL }), []],
    ['REPEATED MIT without 3DS data: fine', card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' } }), []],
    ['REPEATED MIT with external results: each field named', card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' }, ...EXTERNAL }), EXTERNAL.threeDSecureFieldsSent],
    ['REPEATED MIT with threeDSecure.eci only', card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' }, threeDSecureFieldsSent: ['threeDSecure.eci'] }), ['threeDSecure.eci']],
    ['REPEATED MIT with dsTransactionId', card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' }, threeDSecureFieldsSent: ['threeDSecure.dsTransactionId'] }), ['threeDSecure.dsTransactionId']],
    ['REPEATED MIT with a challenge indicator', card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' }, threeDSecureFieldsSent: ['threeDSecure.challengeIndicator'] }), ['threeDSecure.challengeIndicator']],
    ['REPEATED MIT with an exemption flag', card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' }, threeDSecureFieldsSent: ['threeDSecure.exemptionFlag'] }), ['threeDSecure.exemptionFlag']],
    ['REPEATED MIT with browser-flow hints', card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' }, threeDSecureFieldsSent: ['threeDSecure.authenticationInd', 'threeDSecure.npa'] }), ['threeDSecure.authenticationInd', 'threeDSecure.npa']],
    ['REPEATED (source absent: MIT) with 3DS data', card({ standingInstruction: { mode: 'REPEATED' }, threeDSecureFieldsSent: ['threeDSecure.verificationId'] }), ['threeDSecure.verificationId']],
    ['MIT (mode absent: REPEATED) with 3DS data', card({ standingInstruction: { source: 'MIT' }, threeDSecureFieldsSent: ['threeDSecure.version'] }), ['threeDSecure.version']],
    ['REPEATED MIT flagging a 3RI authentication: merchant-initiated fields are allowed', card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' }, threeDSecureFieldsSent: ['threeDSecure.channel', 'threeDSecure.threeRIInd'] }), []],
    ['REPEATED MIT: 3RI fields allowed, the eci still named', card({ standingInstruction: { mode: 'REPEATED', source: 'MIT' }, threeDSecureFieldsSent: ['threeDSecure.threeRIInd', 'threeDSecure.eci'] }), ['threeDSecure.eci']],
    ['INITIAL MIT: left to standing-instruction.ts (mitIsNeverInitial), not reported twice', card({ standingInstruction: { mode: 'INITIAL', source: 'MIT' }, ...EXTERNAL }), []],
  ];
  for (const [name, facts, offending] of ROWS) {
    it(name, () => {
      const violations = standingInstructionViolations(facts);
      assert.deepEqual(violations.map((v) => v.name), offending);
      for (const v of violations) {
        assert.equal(v.code, STANDING_INSTRUCTION_VIOLATION_CODE);
        assert.match(v.message, /REPEATED/);
      }
    });
  }

  it('the violation code is in the catalogue, a client error outside the 3D Secure group', () => {
    assert.equal(resultCode(STANDING_INSTRUCTION_VIOLATION_CODE).httpStatus, 400);
    assert.doesNotMatch(STANDING_INSTRUCTION_VIOLATION_CODE, /^(800\.400\.2|100\.390)/);
  });
});
