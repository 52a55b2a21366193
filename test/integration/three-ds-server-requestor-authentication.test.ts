/**
 * What the AReq of the gateway's own 3DS server says about why the shopper is authenticated
 * (threeDSRequestorAuthenticationInd with the series data) and the merchant's challenge
 * preference, as the 3DS test platform (emulators/three-ds-host) received it: its log keeps the
 * fields, and its directory refuses an AReq that breaks their rules, so a payment that reaches a
 * result had a valid one (docs/three-d-secure.md, "What the AReq says about the purchase").
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, exampleCard } from '../../emulators/three-ds-host/table.js';
import { maskPan } from '../../emulators/three-ds-host/log.js';
import { testDatabases } from '../support/databases.js';
import { postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { json, startTestApp, type TestApp } from '../support/test-app.js';
import { BROWSER, setThreeDSecureRequirement } from '../support/three-d-secure.js';

const FRICTIONLESS_Y = exampleCard(CARD_RANGES.find((r) => r.outcome === 'frictionless' && r.transStatus === 'Y')!);
/** In no range of the platform: the directory validates and logs its AReq, then answers U (not enrolled). */
const MASTER_CARD = { paymentBrand: 'MASTER', 'card.number': '5200000000000007' };
const INITIAL_CIT = { 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT' };
const AREQ_FIELDS = ['threeDSRequestorAuthenticationInd', 'recurringExpiry', 'recurringFrequency', 'purchaseInstalData', 'threeDSRequestorChallengeInd'] as const;

for (const db of testDatabases()) {
  describe(`the AReq's requestor authentication and challenge indicator, against the emulator (${db.name})`, () => {
    let host: ThreeDsHost;
    let t: TestApp;
    let merchant: Merchant;
    const pay = (extra: Record<string, string>) =>
      postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': FRICTIONLESS_Y, shopperResultUrl: 'https://shop.example.com/result', ...extra });
    /** The fields of the last AReq the platform received for the card, those absent left out. */
    const lastAReq = (pan: string): Record<string, string> => {
      const entry = host.log.entries().filter((e) => e.maskedPan === maskPan(pan)).at(-1);
      assert.ok(entry, 'the platform received an AReq for the card');
      const summary = entry.messages.find((m) => m.type === 'AReq' && m.direction === 'in')!.summary;
      assert.equal(entry.messages.some((m) => m.type === 'Erro'), false, 'the directory accepted the AReq');
      return Object.fromEntries(AREQ_FIELDS.filter((field) => summary[field] !== undefined).map((field) => [field, summary[field]!]));
    };

    before(async () => {
      host = await startThreeDsHost({ port: 0 });
      t = await startTestApp(await db.open(), { env: { THREE_DS_SERVER_DS_URL: `${host.url}/ds/areq`, THREE_DS_SERVER_TIMEOUT_MS: '5000', LOG_LEVEL: 'warn' } });
      merchant = await t.createMerchant('Series');
      await setThreeDSecureRequirement(t.app, merchant.entityId, 'if-enrolled');
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      await host.close();
    });

    it('a payment without series or preference: 01 and 01, no series data', async () => {
      const paid = await pay({});
      assert.match(json(paid).result.code, SUCCESS_PATTERN, paid.body);
      assert.deepEqual(lastAReq(FRICTIONLESS_Y), { threeDSRequestorAuthenticationInd: '01', threeDSRequestorChallengeInd: '01' });
    });

    it('an INITIAL CIT RECURRING with expiry and frequency: 02 with recurringExpiry and recurringFrequency, authenticated', async () => {
      const paid = await pay({ ...INITIAL_CIT, 'standingInstruction.type': 'RECURRING', 'standingInstruction.expiry': '2030-06-30', 'standingInstruction.frequency': '0030' });
      const body = json(paid);
      assert.match(body.result.code, SUCCESS_PATTERN, paid.body);
      assert.equal(body.threeDSecure.authenticationStatus, 'Y');
      assert.deepEqual(lastAReq(FRICTIONLESS_Y), { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '20300630', recurringFrequency: '30', threeDSRequestorChallengeInd: '01' });
    });

    it('an INITIAL CIT INSTALLMENT with its count: 03 with purchaseInstalData', async () => {
      const paid = await pay({ ...INITIAL_CIT, 'standingInstruction.type': 'INSTALLMENT', 'standingInstruction.expiry': '2027-01-31', 'standingInstruction.frequency': '30', 'standingInstruction.numberOfInstallments': '12' });
      assert.match(json(paid).result.code, SUCCESS_PATTERN, paid.body);
      assert.deepEqual(lastAReq(FRICTIONLESS_Y), { threeDSRequestorAuthenticationInd: '03', recurringExpiry: '20270131', recurringFrequency: '30', purchaseInstalData: '12', threeDSRequestorChallengeInd: '01' });
    });

    it('a VISA RECURRING without expiry and frequency: 02 with 99991231 and 1', async () => {
      const paid = await pay({ ...INITIAL_CIT, 'standingInstruction.type': 'RECURRING' });
      assert.match(json(paid).result.code, SUCCESS_PATTERN, paid.body);
      assert.deepEqual(lastAReq(FRICTIONLESS_Y), { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '99991231', recurringFrequency: '1', threeDSRequestorChallengeInd: '01' });
    });

    it('a MASTER RECURRING without expiry and frequency is authenticated as a payment (01)', async () => {
      const paid = await pay({ ...MASTER_CARD, ...INITIAL_CIT, 'standingInstruction.type': 'RECURRING' });
      // Not enrolled (the card is in no range) where the entity does not require 3-D Secure: the payment goes on.
      assert.match(json(paid).result.code, SUCCESS_PATTERN, paid.body);
      assert.deepEqual(lastAReq(MASTER_CARD['card.number']), { threeDSRequestorAuthenticationInd: '01', threeDSRequestorChallengeInd: '01' });
    });

    it('threeDSecure.authenticationInd ADD_CARD wins over the series; challengeIndicator 05 goes as sent', async () => {
      const paid = await pay({ ...INITIAL_CIT, 'standingInstruction.type': 'RECURRING', 'standingInstruction.expiry': '2030-06-30', 'standingInstruction.frequency': '30', 'threeDSecure.authenticationInd': 'ADD_CARD', 'threeDSecure.challengeIndicator': '05' });
      assert.match(json(paid).result.code, SUCCESS_PATTERN, paid.body);
      assert.deepEqual(lastAReq(FRICTIONLESS_Y), { threeDSRequestorAuthenticationInd: '04', threeDSRequestorChallengeInd: '05' });
    });

    it('challengeIndicator 05 alone: the AReq says 05, the payment answers it', async () => {
      const paid = await pay({ 'threeDSecure.challengeIndicator': '05' });
      const body = json(paid);
      assert.match(body.result.code, SUCCESS_PATTERN, paid.body);
      assert.equal(body.threeDSecure.challengeIndicator, '05');
      assert.deepEqual(lastAReq(FRICTIONLESS_Y), { threeDSRequestorAuthenticationInd: '01', threeDSRequestorChallengeInd: '05' });
    });
  });
}
