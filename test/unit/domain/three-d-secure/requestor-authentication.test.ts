import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestorAuthentication, type RequestorAuthentication, type RequestorAuthenticationFacts } from '../../../../src/domain/three-d-secure/requestor-authentication.js';

const SERIES = { expiry: '2030-06-30', frequency: '0030' };
const RECURRING_CIT = { type: 'RECURRING', mode: 'INITIAL', source: 'CIT' };
const INSTALLMENT_CIT = { type: 'INSTALLMENT', mode: 'INITIAL', source: 'CIT' };
const master = (facts: Partial<RequestorAuthenticationFacts>): RequestorAuthenticationFacts => ({ brand: 'MASTER', ...facts });
const visa = (facts: Partial<RequestorAuthenticationFacts>): RequestorAuthenticationFacts => ({ brand: 'VISA', ...facts });
const ind = (value: RequestorAuthentication['threeDSRequestorAuthenticationInd']): RequestorAuthentication => ({ threeDSRequestorAuthenticationInd: value });

// One row per rule; the AReq's fields exactly (no series data unless 02 or 03).
const ROWS: readonly (readonly [name: string, facts: RequestorAuthenticationFacts, expected: RequestorAuthentication])[] = [
  ['nothing said: a payment', master({}), ind('01')],
  ['authenticationInd PAYMENT', master({ authenticationInd: 'PAYMENT' }), ind('01')],
  ['authenticationInd ADD_CARD', master({ authenticationInd: 'ADD_CARD' }), ind('04')],
  ['authenticationInd MAINTAIN_CARD', master({ authenticationInd: 'MAINTAIN_CARD' }), ind('05')],
  ['authenticationInd EMV_ID', master({ authenticationInd: 'EMV_ID' }), ind('06')],
  ['authenticationInd BILLING_AGREEMENT (2.3.1\'s 07): a payment', master({ authenticationInd: 'BILLING_AGREEMENT' }), ind('01')],
  ['authenticationInd SPLIT_SHIPMENT (08): a payment', master({ authenticationInd: 'SPLIT_SHIPMENT' }), ind('01')],
  ['authenticationInd _DELAYED_SHIPMENT (09): a payment', master({ authenticationInd: '_DELAYED_SHIPMENT' }), ind('01')],
  ['authenticationInd SPLIT_PAYMENT (10): a payment', master({ authenticationInd: 'SPLIT_PAYMENT' }), ind('01')],
  ['authenticationInd ADD_CARD wins over a recurring series', master({ authenticationInd: 'ADD_CARD', standingInstruction: { ...RECURRING_CIT, ...SERIES } }), ind('04')],
  ['authenticationInd PAYMENT wins over a recurring series', master({ authenticationInd: 'PAYMENT', standingInstruction: { ...RECURRING_CIT, ...SERIES } }), ind('01')],
  ['INITIAL CIT RECURRING with expiry and frequency', master({ standingInstruction: { ...RECURRING_CIT, ...SERIES } }), { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '20300630', recurringFrequency: '30' }],
  ['RECURRING with mode and source left out (an INITIAL CIT)', master({ standingInstruction: { type: 'RECURRING', ...SERIES } }), { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '20300630', recurringFrequency: '30' }],
  ['INITIAL CIT INSTALLMENT with the series and its count', master({ standingInstruction: { ...INSTALLMENT_CIT, ...SERIES, numberOfInstallments: '012' } }), { threeDSRequestorAuthenticationInd: '03', recurringExpiry: '20300630', recurringFrequency: '30', purchaseInstalData: '12' }],
  ['authenticationInd RECURRING with the series data', master({ authenticationInd: 'RECURRING', standingInstruction: { ...SERIES } }), { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '20300630', recurringFrequency: '30' }],
  ['authenticationInd INSTALLMENT with the data', master({ authenticationInd: 'INSTALLMENT', standingInstruction: { ...SERIES, numberOfInstallments: '3' } }), { threeDSRequestorAuthenticationInd: '03', recurringExpiry: '20300630', recurringFrequency: '30', purchaseInstalData: '3' }],
  ['UNSCHEDULED INITIAL CIT: a payment', master({ standingInstruction: { type: 'UNSCHEDULED', mode: 'INITIAL', source: 'CIT', ...SERIES } }), ind('01')],
  ['RECURRING REPEATED CIT: a payment', master({ standingInstruction: { type: 'RECURRING', mode: 'REPEATED', source: 'CIT', ...SERIES } }), ind('01')],
  ['RECURRING with source MIT: a payment', master({ standingInstruction: { type: 'RECURRING', source: 'MIT', ...SERIES } }), ind('01')],
  ['MASTER RECURRING without expiry: a payment', master({ standingInstruction: { ...RECURRING_CIT, frequency: '0030' } }), ind('01')],
  ['MASTER RECURRING without frequency: a payment', master({ standingInstruction: { ...RECURRING_CIT, expiry: '2030-06-30' } }), ind('01')],
  ['MASTER authenticationInd RECURRING without a standing instruction: a payment', master({ authenticationInd: 'RECURRING' }), ind('01')],
  ['VISA RECURRING without expiry and frequency: 99991231 and 1', visa({ standingInstruction: RECURRING_CIT }), { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '99991231', recurringFrequency: '1' }],
  ['VISA RECURRING with its expiry, no frequency: only the frequency filled in', visa({ standingInstruction: { ...RECURRING_CIT, expiry: '2031-01-31' } }), { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '20310131', recurringFrequency: '1' }],
  ['VISADEBIT RECURRING with its frequency, no expiry', { brand: 'VISADEBIT', standingInstruction: { ...RECURRING_CIT, frequency: '7' } }, { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '99991231', recurringFrequency: '7' }],
  ['VISA authenticationInd RECURRING without a standing instruction', visa({ authenticationInd: 'RECURRING' }), { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '99991231', recurringFrequency: '1' }],
  ['VISA INSTALLMENT with its count, defaults for the series', visa({ standingInstruction: { ...INSTALLMENT_CIT, numberOfInstallments: '6' } }), { threeDSRequestorAuthenticationInd: '03', recurringExpiry: '99991231', recurringFrequency: '1', purchaseInstalData: '6' }],
  ['VISA INSTALLMENT without numberOfInstallments: a payment', visa({ standingInstruction: INSTALLMENT_CIT }), ind('01')],
  ['INSTALLMENT without numberOfInstallments: a payment', master({ standingInstruction: { ...INSTALLMENT_CIT, ...SERIES } }), ind('01')],
  ['INSTALLMENT of one authorisation (purchaseInstalData must exceed 1): a payment', master({ standingInstruction: { ...INSTALLMENT_CIT, ...SERIES, numberOfInstallments: '001' } }), ind('01')],
  ['a frequency that is not digits: a payment', master({ standingInstruction: { ...RECURRING_CIT, expiry: '2030-06-30', frequency: 'x' } }), ind('01')],
];

describe('the AReq\'s requestor authentication fields', () => {
  for (const [name, facts, expected] of ROWS) {
    it(`${name} → ${expected.threeDSRequestorAuthenticationInd}`, () => {
      assert.deepEqual(requestorAuthentication(facts), expected);
    });
  }
});
