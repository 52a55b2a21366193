import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decideStandingInstruction,
  STANDING_INSTRUCTION_RULES,
  type StandingInstructionFacts,
  type StandingInstructionPlan,
} from '../../../src/domain/standing-instruction.js';

const CVV = ['card.cvv'];
const THREE_DS = ['threeDSecure.verificationId', 'threeDSecure.eci'];
const visa = (facts: Partial<StandingInstructionFacts>): StandingInstructionFacts => ({
  instruction: undefined,
  account: 'card',
  brand: 'VISA',
  shopperAuthentication: [],
  threeDSecureRequested: false,
  ...facts,
});

interface Row {
  readonly name: string;
  readonly facts: StandingInstructionFacts;
  /** A rejection: code and the parameter it names. */
  readonly rejects?: readonly [code: string, parameter: string, rule: string];
  /** An acceptance: the plan's fields that matter for the row (undefined: no plan at all). */
  readonly plan?: Partial<StandingInstructionPlan> | undefined;
}

// One row per rule or derived value, in the order of the rules; the first broken rule wins.
const ROWS: readonly Row[] = [
  { name: 'no standing instruction: no rules, no plan', facts: visa({}), plan: undefined },
  { name: 'INITIAL CIT with a CVV starts a series and returns its scheme reference', facts: visa({ instruction: { mode: 'INITIAL', source: 'CIT', type: 'UNSCHEDULED' }, shopperAuthentication: CVV }), plan: { mode: 'INITIAL', source: 'CIT', returnsSchemeReference: true, initialTransactionId: undefined } },
  { name: 'type alone means a first payment: INITIAL, CIT', facts: visa({ instruction: { type: 'UNSCHEDULED' }, shopperAuthentication: CVV }), plan: { mode: 'INITIAL', source: 'CIT', returnsSchemeReference: true } },
  { name: 'source MIT with mode INITIAL', facts: visa({ instruction: { mode: 'INITIAL', source: 'MIT', initialTransactionId: 'SIM1' }, shopperAuthentication: CVV }), rejects: ['600.200.501', 'standingInstruction.mode', 'mitIsNeverInitial'] },
  { name: 'industryPractice with source CIT', facts: visa({ instruction: { source: 'CIT', mode: 'REPEATED', industryPractice: 'NO_SHOW' } }), rejects: ['600.200.501', 'standingInstruction.industryPractice', 'industryPracticeIsMerchantInitiated'] },
  { name: 'industryPractice with mode INITIAL', facts: visa({ instruction: { mode: 'INITIAL', industryPractice: 'RESUBMISSION' }, shopperAuthentication: CVV }), rejects: ['600.200.501', 'standingInstruction.industryPractice', 'industryPracticeIsMerchantInitiated'] },
  { name: 'industryPractice alone is a MIT follow-up', facts: visa({ instruction: { industryPractice: 'DELAYED_CHARGES', initialTransactionId: 'SIM1' } }), plan: { mode: 'REPEATED', source: 'MIT', initialTransactionId: 'SIM1', returnsSchemeReference: false } },
  { name: 'INITIAL naming an initialTransactionId', facts: visa({ instruction: { mode: 'INITIAL', initialTransactionId: 'SIM1' }, shopperAuthentication: CVV }), rejects: ['600.200.501', 'standingInstruction.initialTransactionId', 'initialReferencesNothing'] },
  { name: 'numberOfInstallments on a RECURRING series', facts: visa({ instruction: { type: 'RECURRING', numberOfInstallments: '12' }, shopperAuthentication: CVV }), rejects: ['600.200.501', 'standingInstruction.numberOfInstallments', 'installmentCountOnlyForInstallments'] },
  { name: 'INITIAL card without CVV or 3D Secure', facts: visa({ instruction: { mode: 'INITIAL' } }), rejects: ['600.200.501', 'card.cvv', 'initialCarriesShopperAuthentication'] },
  { name: 'INITIAL token account without cryptogram', facts: visa({ instruction: { mode: 'INITIAL' }, account: 'tokenAccount' }), rejects: ['600.200.501', 'tokenAccount.cryptogram', 'initialCarriesShopperAuthentication'] },
  { name: 'INITIAL token account with its cryptogram', facts: visa({ instruction: { mode: 'INITIAL' }, account: 'tokenAccount', shopperAuthentication: ['tokenAccount.cryptogram'] }), plan: { mode: 'INITIAL' } },
  { name: 'INITIAL with external 3D Secure results instead of a CVV', facts: visa({ instruction: { mode: 'INITIAL' }, shopperAuthentication: THREE_DS }), plan: { mode: 'INITIAL', returnsSchemeReference: true } },
  { name: 'INITIAL asking the gateway for 3D Secure', facts: visa({ instruction: { mode: 'INITIAL' }, threeDSecureRequested: true }), plan: { mode: 'INITIAL' } },
  { name: 'INITIAL wallet payment: the wallet cryptogram authenticates', facts: visa({ instruction: { mode: 'INITIAL' }, account: 'wallet' }), plan: { mode: 'INITIAL' } },
  { name: 'INITIAL SEPA direct debit: no card authentication applies', facts: visa({ instruction: { mode: 'INITIAL' }, account: 'other', brand: 'DIRECTDEBIT_SEPA' }), plan: { mode: 'INITIAL' } },
  { name: 'REPEATED MIT carrying a CVV', facts: visa({ instruction: { mode: 'REPEATED', source: 'MIT', initialTransactionId: 'SIM1' }, shopperAuthentication: CVV }), rejects: ['600.200.501', 'card.cvv', 'repeatedCarriesNoShopperAuthentication'] },
  { name: 'REPEATED carrying a 3D Secure CAVV', facts: visa({ instruction: { mode: 'REPEATED', initialTransactionId: 'SIM1' }, shopperAuthentication: ['threeDSecure.verificationId'] }), rejects: ['600.200.501', 'threeDSecure.verificationId', 'repeatedCarriesNoShopperAuthentication'] },
  { name: 'REPEATED CIT carrying a CVV (the shopper is absent on REPEATED)', facts: visa({ instruction: { mode: 'REPEATED', source: 'CIT' }, shopperAuthentication: CVV }), rejects: ['600.200.501', 'card.cvv', 'repeatedCarriesNoShopperAuthentication'] },
  { name: 'MIT with card data the gateway does not store and no initialTransactionId', facts: visa({ instruction: { mode: 'REPEATED', source: 'MIT' } }), rejects: ['200.300.404', 'standingInstruction.initialTransactionId', 'mitNeedsInitialTransactionId'] },
  { name: 'REPEATED alone means MIT, so it needs the initial id too', facts: visa({ instruction: { mode: 'REPEATED' } }), rejects: ['200.300.404', 'standingInstruction.initialTransactionId', 'mitNeedsInitialTransactionId'] },
  { name: 'MIT with card data and initialTransactionId passes it on', facts: visa({ instruction: { source: 'MIT', initialTransactionId: 'SIM123' } }), plan: { mode: 'REPEATED', source: 'MIT', initialTransactionId: 'SIM123', returnsSchemeReference: false } },
  { name: 'MIT SEPA direct debit needs no scheme reference', facts: visa({ instruction: { source: 'MIT' }, account: 'other', brand: 'DIRECTDEBIT_SEPA' }), plan: { source: 'MIT', initialTransactionId: undefined } },
  { name: 'MIT with a registration uses its initial CIT reference', facts: visa({ instruction: { source: 'MIT', mode: 'REPEATED' }, registration: { initialSchemeReference: 'SIM777' } }), plan: { source: 'MIT', initialTransactionId: 'SIM777' } },
  { name: 'MIT with a registration: the request\'s own id wins', facts: visa({ instruction: { source: 'MIT', initialTransactionId: 'SIM888' }, registration: { initialSchemeReference: 'SIM777' } }), plan: { initialTransactionId: 'SIM888' } },
  { name: 'MIT with a registration that never had an initial CIT', facts: visa({ instruction: { source: 'MIT' }, registration: { initialSchemeReference: null } }), rejects: ['100.150.300', 'standingInstruction.source', 'registrationMitNeedsInitialCit'] },
  { name: 'REPEATED CIT with a registration sends no initial id', facts: visa({ instruction: { source: 'CIT', mode: 'REPEATED' }, registration: { initialSchemeReference: 'SIM777' } }), plan: { source: 'CIT', initialTransactionId: undefined, returnsSchemeReference: false } },
  { name: 'INSTALLMENT with 3D Secure and no numberOfInstallments', facts: visa({ instruction: { type: 'INSTALLMENT' }, shopperAuthentication: THREE_DS }), rejects: ['200.300.404', 'standingInstruction.numberOfInstallments', 'installmentNeedsCount'] },
  { name: 'INSTALLMENT without 3D Secure may leave the count out', facts: visa({ instruction: { type: 'INSTALLMENT' }, shopperAuthentication: CVV }), plan: { defaults: {}, threeDSecureIndicator: undefined } },
  { name: 'RECURRING VISA with 3D Secure: expiry 9999-12-31 and frequency 0001 by default', facts: visa({ instruction: { type: 'RECURRING' }, shopperAuthentication: THREE_DS }), plan: { defaults: { expiry: '9999-12-31', frequency: '0001' }, threeDSecureIndicator: 'RECURRING' } },
  { name: 'INSTALLMENT VISA with 3D Secure and its own expiry: only the frequency defaults', facts: visa({ instruction: { type: 'INSTALLMENT', numberOfInstallments: '6', expiry: '2027-06-30' }, threeDSecureRequested: true, shopperAuthentication: CVV }), plan: { defaults: { frequency: '0001' }, threeDSecureIndicator: 'INSTALLMENT' } },
  { name: 'RECURRING MASTER with 3D Secure and no expiry: authenticated as a plain payment', facts: visa({ instruction: { type: 'RECURRING' }, brand: 'MASTER', shopperAuthentication: THREE_DS }), plan: { defaults: {}, threeDSecureIndicator: 'PAYMENT' } },
  { name: 'RECURRING MASTER with 3D Secure, expiry and frequency', facts: visa({ instruction: { type: 'RECURRING', expiry: '2030-01-31', frequency: '0030' }, brand: 'MASTER', shopperAuthentication: THREE_DS }), plan: { defaults: {}, threeDSecureIndicator: 'RECURRING' } },
  { name: 'RECURRING VISA without 3D Secure: nothing to fill in', facts: visa({ instruction: { type: 'RECURRING' }, shopperAuthentication: CVV }), plan: { defaults: {}, threeDSecureIndicator: undefined } },
  { name: 'precedence: MIT INITIAL with an initial id names the mode first', facts: visa({ instruction: { mode: 'INITIAL', source: 'MIT', initialTransactionId: 'SIM1' } }), rejects: ['600.200.501', 'standingInstruction.mode', 'mitIsNeverInitial'] },
];

describe('standing instruction rules', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const decision = decideStandingInstruction(row.facts);
      if (row.rejects) {
        assert.equal(decision.ok, false, JSON.stringify(decision));
        if (decision.ok) return;
        const [code, parameter, rule] = row.rejects;
        assert.deepEqual([decision.violation.code, decision.violation.parameter, decision.violation.rule], [code, parameter, rule]);
        return;
      }
      assert.equal(decision.ok, true, JSON.stringify(decision));
      if (!decision.ok) return;
      if (row.plan === undefined) return assert.equal(decision.plan, undefined);
      assert.ok(decision.plan);
      for (const [field, expected] of Object.entries(row.plan)) {
        assert.deepEqual(decision.plan[field as keyof StandingInstructionPlan], expected, field);
      }
    });
  }

  it('every rule has at least one row that breaks it', () => {
    const broken = new Set(ROWS.flatMap((row) => (row.rejects ? [row.rejects[2]] : [])));
    assert.deepEqual(STANDING_INSTRUCTION_RULES.map((rule) => rule.id).filter((id) => !broken.has(id)), []);
  });

  it('uses only codes of the catalogue groups it means: recurring configuration, missing parameter, registration', () => {
    assert.deepEqual([...new Set(STANDING_INSTRUCTION_RULES.map((rule) => rule.code))].sort(), ['100.150.300', '200.300.404', '600.200.501']);
  });
});
