/**
 * The 3DS server connector with the directory's card ranges (THREE_DS_SERVER_PREQ_URL), against
 * the 3DS test platform on both databases: the PReq at start, the AReq's version negotiated per
 * range, no AReq for a card in no range, threeDSCompInd U for a range without 3DS Method URL and
 * the method page first for one with (three-ds-server-method.test.ts), and the fallback to the setting's version
 * when the PRes cannot be had.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, exampleCard } from '../../emulators/three-ds-host/table.js';
import { testDatabases } from '../support/databases.js';
import { postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { json, startTestApp, type TestApp } from '../support/test-app.js';
import { BROWSER, setThreeDSecureRequirement } from '../support/three-d-secure.js';

const RESULT_URL = 'https://shop.example.com/result';
const BOTH_VERSIONS = exampleCard(CARD_RANGES.find((r) => r.outcome === 'frictionless' && r.transStatus === 'Y' && !r.acsEndProtocolVersion)!);
const ONLY_2_2_0 = exampleCard(CARD_RANGES.find((r) => r.acsEndProtocolVersion === '2.2.0')!);
const METHOD = exampleCard(CARD_RANGES.find((r) => r.outcome === 'method')!);
const NOT_ENROLLED_ROW = exampleCard(CARD_RANGES.find((r) => r.outcome === 'not-enrolled')!);
const IN_NO_RANGE = '4111111111111111';

for (const db of testDatabases()) {
  describe(`the 3DS server connector with the directory's card ranges (${db.name})`, () => {
    let host: ThreeDsHost;
    let t: TestApp;
    let always: Merchant;
    let ifEnrolled: Merchant;
    const pay = (merchant: Merchant, pan: string) =>
      postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': pan, shopperResultUrl: RESULT_URL });
    const aReqsOf = (pan: string) => host.log.entries().filter((e) => e.maskedPan === `${pan.slice(0, 6)}******${pan.slice(-4)}`).map((e) => e.messages.find((m) => m.type === 'AReq')!.summary);

    before(async () => {
      host = await startThreeDsHost({ port: 0 });
      t = await startTestApp(await db.open(), {
        env: { THREE_DS_SERVER_DS_URL: `${host.url}/ds/areq`, THREE_DS_SERVER_PREQ_URL: `${host.url}/ds/preq`, THREE_DS_SERVER_TIMEOUT_MS: '2000', LOG_LEVEL: 'warn' },
      });
      always = await t.createMerchant('Always');
      ifEnrolled = await t.createMerchant('If enrolled');
      await setThreeDSecureRequirement(t.app, always.entityId, 'always');
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      await host.close();
    });

    it('asks for the card ranges once (a PReq at start), not per payment', async () => {
      await pay(always, BOTH_VERSIONS);
      await pay(always, BOTH_VERSIONS);
      const preqs = host.log.entries().filter((e) => e.messages.some((m) => m.type === 'PReq'));
      assert.equal(preqs.length, 1);
      assert.equal(preqs[0]!.messages.find((m) => m.type === 'PRes')?.summary['cardRanges'], String(CARD_RANGES.length - 1));
    });

    it('a range whose ACS speaks 2.2.0 to 2.3.1: the AReq is 2.3.1, threeDSCompInd U (no method URL), the payment succeeds', async () => {
      const paid = json(await pay(always, BOTH_VERSIONS));
      assert.match(paid.result.code, SUCCESS_PATTERN);
      assert.equal(paid.threeDSecure.version, '2.3.1');
      assert.deepEqual(aReqsOf(BOTH_VERSIONS).map((a) => [a['messageVersion'], a['threeDSCompInd']]).at(-1), ['2.3.1', 'U']);
    });

    it('a range whose ACS speaks 2.2.0 only: the AReq is 2.2.0', async () => {
      const paid = json(await pay(always, ONLY_2_2_0));
      assert.match(paid.result.code, SUCCESS_PATTERN);
      assert.equal(paid.threeDSecure.version, '2.2.0');
      assert.deepEqual(aReqsOf(ONLY_2_2_0).map((a) => a['messageVersion']), ['2.2.0']);
    });

    it('a card in no range is not enrolled without an AReq: 000.400.109 where required, without 3-D Secure where not', async () => {
      for (const pan of [NOT_ENROLLED_ROW, IN_NO_RANGE]) {
        const declined = json(await pay(always, pan));
        assert.equal(declined.result.code, '000.400.109', pan);
        const paid = json(await pay(ifEnrolled, pan));
        assert.match(paid.result.code, SUCCESS_PATTERN);
        assert.equal(paid.threeDSecure, undefined, 'no authentication data, no liability shift');
        assert.deepEqual(aReqsOf(pan), [], 'the directory saw no AReq');
      }
    });

    it('a range with a 3DS Method URL: no AReq yet, the payment\'s redirect leads to the gateway\'s method page (three-ds-server-method.test.ts runs it)', async () => {
      const pending = json(await pay(always, METHOD));
      assert.equal(pending.result.code, '000.200.000');
      assert.match(pending.redirect.url, /\/v1\/threeDSecure\/method\/[a-zA-Z0-9]{32}$/);
      assert.deepEqual(aReqsOf(METHOD), [], 'the AReq waits for the method');
    });
  });

  describe(`without a PRes (${db.name})`, () => {
    let host: ThreeDsHost;
    let t: TestApp;
    let always: Merchant;
    before(async () => {
      host = await startThreeDsHost({ port: 0 });
      // The DS answers 404 for this path: no card ranges.
      t = await startTestApp(await db.open(), {
        env: { THREE_DS_SERVER_DS_URL: `${host.url}/ds/areq`, THREE_DS_SERVER_PREQ_URL: `${host.url}/ds/no-preq-here`, THREE_DS_SERVER_MESSAGE_VERSION: '2.3.1', LOG_LEVEL: 'warn' },
      });
      always = await t.createMerchant('Always');
      await setThreeDSecureRequirement(t.app, always.entityId, 'always');
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      await host.close();
    });

    it('falls back to the setting\'s version and sends every card\'s AReq (threeDSCompInd N), as without a PReq URL', async () => {
      const paid = json(await postPayment(t, always, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': ONLY_2_2_0, shopperResultUrl: RESULT_URL }));
      assert.match(paid.result.code, SUCCESS_PATTERN);
      assert.equal(paid.threeDSecure.version, '2.3.1');
      const declined = json(await postPayment(t, always, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': IN_NO_RANGE, shopperResultUrl: RESULT_URL }));
      assert.equal(declined.result.code, '000.400.109');
      assert.deepEqual([declined.threeDSecure.authenticationStatus, declined.threeDSecure.transactionStatusReason], ['U', '13'], 'the DS\'s ARes said so');
      const areq = host.log.entries().find((e) => e.maskedPan === '411111******1111')?.messages.find((m) => m.type === 'AReq')?.summary;
      assert.deepEqual([areq?.['messageVersion'], areq?.['threeDSCompInd']], ['2.3.1', 'N']);
    });
  });
}
