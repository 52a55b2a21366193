/**
 * The gateway's own 3DS server connector (connectors/emv3ds-server/) against the 3DS test
 * platform (emulators/three-ds-host), started in-process: with THREE_DS_SERVER_DS_URL the test
 * system authenticates over the EMV 3DS protocol instead of simulating. Each table row the
 * connector handles ends as docs/three-d-secure.md says; what the gateway stores is compared with
 * the platform's log; no answer without a result (an Erro, a timeout, a malformed ARes) is ever a
 * success of the authentication. The live system authenticates through it too (a rehearsal).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, exampleCard, type Outcome } from '../../emulators/three-ds-host/table.js';
import { testDatabases } from '../support/databases.js';
import { getPayment, postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, type TestApp } from '../support/test-app.js';
import { BROWSER, setThreeDSecureRequirement } from '../support/three-d-secure.js';

// The timeout leaves a busy CI host's ordinary AReq a second; the slow rows answer well after it.
const SLOW_MS = 3_000;
const TIMEOUT_MS = 1_000;
const RESULT_URL = 'https://shop.example.com/result';
const https = { 'x-forwarded-proto': 'https' };

function card(outcome: Outcome, transStatus?: string): string {
  const row = CARD_RANGES.find((r) => r.outcome === outcome && (transStatus === undefined || r.transStatus === transStatus));
  return exampleCard(row!);
}

const FRICTIONLESS_Y = card('frictionless', 'Y');
const FRICTIONLESS_A = card('frictionless', 'A');
const FRICTIONLESS_N = card('frictionless', 'N');
const FRICTIONLESS_U = card('frictionless', 'U');
const FRICTIONLESS_R = card('frictionless', 'R');
const NOT_ENROLLED = card('not-enrolled');
const ERRO = card('erro');
const SLOW = card('slow');
const NOT_JSON = card('not-json');
const MISSING_FIELDS = card('missing-fields');

function envFor(host: ThreeDsHost, timeoutMs = TIMEOUT_MS): Record<string, string> {
  return { THREE_DS_SERVER_DS_URL: `${host.url}/ds/areq`, THREE_DS_SERVER_TIMEOUT_MS: String(timeoutMs), LOG_LEVEL: 'warn' };
}

for (const db of testDatabases()) {
  describe(`the 3DS server connector against the emulator (${db.name})`, () => {
    let host: ThreeDsHost;
    let t: TestApp;
    let ifEnrolled: Merchant;
    let always: Merchant;
    const pay = (merchant: Merchant, pan: string, extra: Record<string, string> = {}) =>
      postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': pan, shopperResultUrl: RESULT_URL, ...extra });
    /** The platform's log entry of the authentication a payment stored. */
    const logged = (dsTransactionId: string) => host.log.entries().find((entry) => entry.dsTransID === dsTransactionId);

    before(async () => {
      host = await startThreeDsHost({ port: 0, slowMs: SLOW_MS });
      t = await startTestApp(await db.open(), { env: envFor(host) });
      ifEnrolled = await t.createMerchant('If enrolled');
      always = await t.createMerchant('Always');
      await setThreeDSecureRequirement(t.app, always.entityId, 'always');
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      await host.close();
    });

    it('the test system uses the connector, not the simulation', () => {
      assert.equal(t.app.gateway.payments.threeDSecure?.id, 'emv3ds-server');
    });

    for (const [name, pan, status, eci] of [['Y', FRICTIONLESS_Y, 'Y', '05'], ['A', FRICTIONLESS_A, 'A', '06']] as const) {
      it(`frictionless ${name}: the payment succeeds with the ARes's eci, authenticationValue and ids, stored`, async () => {
        const response = await pay(always, pan);
        const paid = json(response);
        assert.match(paid.result.code, SUCCESS_PATTERN, response.body);
        const entry = logged(paid.threeDSecure?.dsTransactionId);
        assert.ok(entry, 'the stored dsTransactionId is the one the DS handed out');
        const ares = entry.messages.find((m) => m.type === 'ARes')!.summary;
        const stored = json(await getPayment(t, always, paid.id)).threeDSecure;
        for (const block of [paid.threeDSecure, stored]) {
          assert.equal(block.authenticationStatus, status);
          assert.equal(block.eci, eci);
          assert.equal(block.eci, ares['eci']);
          assert.equal(block.verificationId, ares['authenticationValue']);
          assert.equal(block.dsTransactionId, entry.dsTransID);
          assert.equal(block.acsTransactionId, entry.acsTransID);
          assert.equal(block.version, '2.2.0');
        }
        assert.equal(entry.maskedPan, `${pan.slice(0, 6)}******${pan.slice(-4)}`);
        const areq = entry.messages.find((m) => m.type === 'AReq')!.summary;
        assert.deepEqual([areq['deviceChannel'], areq['purchaseAmount'], areq['purchaseCurrency']], ['02', '9200', '978']);
        assert.equal(response.body.includes(pan), false);
      });
    }

    for (const [name, pan, code, reason] of [['N', FRICTIONLESS_N, '800.400.200', '01'], ['R', FRICTIONLESS_R, '100.390.114', '11']] as const) {
      it(`frictionless ${name} declines with ${code} whatever the setting, with the ARes's status and reason`, async () => {
        for (const merchant of [ifEnrolled, always]) {
          const declined = json(await pay(merchant, pan));
          assert.equal(declined.result.code, code);
          const stored = json(await getPayment(t, merchant, declined.id));
          assert.equal(stored.result.code, code);
          assert.deepEqual([stored.threeDSecure.authenticationStatus, stored.threeDSecure.transactionStatusReason, stored.threeDSecure.eci, stored.threeDSecure.verificationId], [name, reason, '07', undefined]);
          assert.ok(logged(stored.threeDSecure.dsTransactionId), 'the ids are the DS\'s');
        }
      });
    }

    it('not enrolled (U, reason 13): declined 000.400.109 where required, without 3-D Secure where not', async () => {
      const declined = json(await pay(always, NOT_ENROLLED));
      assert.equal(declined.result.code, '000.400.109');
      assert.deepEqual([declined.threeDSecure.authenticationStatus, declined.threeDSecure.transactionStatusReason], ['U', '13']);
      const paid = json(await pay(ifEnrolled, NOT_ENROLLED));
      assert.match(paid.result.code, SUCCESS_PATTERN);
      assert.equal(paid.threeDSecure, undefined, 'no authentication data, no liability shift');
    });

    it('U for another reason: authentication unavailable, 000.400.101 where required', async () => {
      assert.equal(json(await pay(always, FRICTIONLESS_U)).result.code, '000.400.101');
      const paid = json(await pay(ifEnrolled, FRICTIONLESS_U));
      assert.match(paid.result.code, SUCCESS_PATTERN);
      assert.equal(paid.threeDSecure, undefined);
    });

    for (const [name, pan] of [['an Erro 402', ERRO], ['a body that is not JSON', NOT_JSON], ['an ARes without transStatus', MISSING_FIELDS], ['no ARes within the timeout', SLOW]] as const) {
      it(`${name}: no result, declined 100.390.112 where required, never a success of the authentication`, async () => {
        const refused = json(await pay(always, pan));
        assert.equal(refused.result.code, '100.390.112');
        assert.equal(refused.threeDSecure, undefined);
        const paid = json(await pay(ifEnrolled, pan));
        assert.match(paid.result.code, SUCCESS_PATTERN, 'not required: the payment goes on without 3-D Secure');
        assert.equal(paid.threeDSecure, undefined, 'no authentication data, no liability shift');
        assert.notEqual(paid.result.code, '000.400.110');
      });
    }

    it('a standalone authentication of a frictionless Y answers 000.400.110 with the ARes data', async () => {
      const response = await t.app.inject({
        method: 'POST', url: '/v1/threeDSecure', headers: { ...bearer(ifEnrolled.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: ifEnrolled.entityId, amount: '10.00', currency: 'EUR', ...SAMPLE_CARD, ...BROWSER, 'card.number': FRICTIONLESS_Y, shopperResultUrl: RESULT_URL }),
      });
      const body = json(response);
      assert.equal(body.result.code, '000.400.110', response.body);
      assert.ok(logged(body.threeDSecure.dsTransactionId));
    });

    it('a request without the browser data: the DS refuses the AReq (Erro 201), the request hears every missing field', async () => {
      const { 'customer.browser.userAgent': _ua, 'customer.browser.acceptHeader': _accept, ...rest } = BROWSER;
      const response = await postPayment(t, always, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...rest, 'card.number': FRICTIONLESS_Y, shopperResultUrl: RESULT_URL });
      assert.equal(response.statusCode, 400, response.body);
      const names = (json(response).result.parameterErrors as { name: string }[]).map((e) => e.name);
      assert.deepEqual(names.sort(), ['customer.browser.acceptHeader', 'customer.browser.userAgent']);
    });

    it('no log line holds a card number; an answer without result is logged with its reason', () => {
      assert.match(t.logs.text, /3-D Secure directory gave no result.*|"reason":"timeout"/);
      assert.ok(t.logs.lines.some((line) => line.includes('"reason":"erro-402"')));
      for (const pan of [FRICTIONLESS_Y, FRICTIONLESS_N, ERRO, SLOW, NOT_JSON]) assert.equal(t.logs.text.includes(pan), false);
    });
  });

  describe(`the live system rehearsing against the emulator (${db.name})`, () => {
    let host: ThreeDsHost;
    let t: TestApp;
    let merchant: Merchant;
    before(async () => {
      host = await startThreeDsHost({ port: 0 });
      // No timeout is tested here: the setting's usual 10 s, so a slow moment of the host cannot fail it.
      t = await startTestApp(await db.open(), { env: { ...envFor(host, 10_000), GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true' } });
      merchant = await t.createMerchant('Live shop');
      await setThreeDSecureRequirement(t.app, merchant.entityId, 'always', https);
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      await host.close();
    });

    it('an entity that requires 3-D Secure is authenticated (no more 000.400.104)', async () => {
      const response = await t.app.inject({
        method: 'POST', url: '/v1/threeDSecure', headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS, ...https },
        payload: form({ entityId: merchant.entityId, amount: '10.00', currency: 'EUR', ...SAMPLE_CARD, ...BROWSER, 'card.number': FRICTIONLESS_Y, shopperResultUrl: RESULT_URL }),
      });
      const body = json(response);
      assert.equal(body.result.code, '000.400.110', response.body);
      assert.equal(body.threeDSecure.authenticationStatus, 'Y');
      assert.ok(host.log.entries().some((entry) => entry.dsTransID === body.threeDSecure.dsTransactionId));
    });
  });
}
