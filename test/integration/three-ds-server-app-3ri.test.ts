/**
 * The app channel (deviceChannel 01) and 3RI (deviceChannel 03) through the gateway's own 3DS
 * server (issue 37) against the 3DS test platform (emulators/three-ds-host), started in-process,
 * on both databases. The gateway listens on a real port: the platform's ACS posts the app
 * challenge's RReq to it. The test plays the mobile app and its SDK: it sends the SDK's
 * authRequestParams as threeDSecure.deviceInfo, reads the pending answer's challenge data, and
 * posts the CReq to the ACS URL that acsSignedContent names, as plain JSON (the emulator's
 * simplification: no JWE). Every AReq is compared with the emulator's log.
 */
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, CHALLENGE_CODE, exampleCard } from '../../emulators/three-ds-host/table.js';
import { CHALLENGE_START_PATH, RESULTS_PATH } from '../../src/connectors/emv3ds-server/server.js';
import { testDatabases } from '../support/databases.js';
import { getPayment, postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { deviceInfoOf, sdkAuthRequestParams } from '../support/sdk-device-info.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';
import { BROWSER, setThreeDSecureRequirement } from '../support/three-d-secure.js';
import { post } from '../support/three-ds-host.js';
import { freePort } from '../support/free-port.js';

const RESULT_URL = 'https://shop.example.com/result';
const card = (outcome: string, status?: string) => exampleCard(CARD_RANGES.find((r) => r.outcome === outcome && (status === undefined || r.transStatus === status))!);
const Y_CARD = card('frictionless', 'Y');
const N_CARD = card('frictionless', 'N');
const CHALLENGE = card('challenge');
/** A REPEATED MIT carries no CVV: the shopper is absent. */
const WITHOUT_CVV = Object.fromEntries(Object.entries(SAMPLE_CARD).filter(([name]) => name !== 'card.cvv'));
const BILLING = Object.fromEntries(Object.entries(BROWSER).filter(([name]) => name.startsWith('billing.')));


/** The AReq summary the emulator logged for the transaction of this dsTransID. */
function areqOfTrans(host: ThreeDsHost, dsTransID: string): Record<string, string> {
  return host.log.entries().find((entry) => entry.dsTransID === dsTransID)!.messages.find((m) => m.type === 'AReq')!.summary;
}

function jwsParts(compact: string): { header: Record<string, any>; payload: Record<string, any>; input: string; signature: Buffer } {
  const [header, payload, signature] = compact.split('.');
  const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  return { header: decode(header!), payload: decode(payload!), input: `${header}.${payload}`, signature: Buffer.from(signature!, 'base64url') };
}

for (const db of testDatabases()) {
  describe(`the app channel and 3RI through the 3DS server connector (${db.name})`, () => {
    let host: ThreeDsHost;
    let t: TestApp;
    let merchant: Merchant;
    let gatewayUrl: string;

    before(async () => {
      host = await startThreeDsHost({ port: 0, rreqTimeoutMs: 10_000 });
      const port = await freePort();
      gatewayUrl = `http://127.0.0.1:${port}`;
      t = await startTestApp(await db.open(), { env: { THREE_DS_SERVER_DS_URL: `${host.url}/ds/areq`, PUBLIC_URL: gatewayUrl, LOG_LEVEL: 'info' } });
      await t.app.listen({ port, host: '127.0.0.1' });
      merchant = await t.createMerchant('App shop');
      await setThreeDSecureRequirement(t.app, merchant.entityId, 'always');
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      await host.close();
    });

    const appPay = (number: string, params: Record<string, unknown>, extra: Record<string, string> = {}) =>
      postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BILLING, 'card.number': number, shopperResultUrl: RESULT_URL, 'threeDSecure.deviceInfo': deviceInfoOf(params), ...extra });

    /** The AReq the emulator logged for this payment: the last entry of this card's last four digits. */
    const lastEntry = () => host.log.entries().at(-1)!;
    const areqOf = (entry: ReturnType<typeof lastEntry>) => entry.messages.find((m) => m.type === 'AReq')!.summary;

    it('app frictionless: the AReq is deviceChannel 01 with the SDK\'s ids and no browser data; the payment succeeds with the ARes\'s data', async () => {
      const params = sdkAuthRequestParams();
      const response = await appPay(Y_CARD, params);
      const body = json(response);
      assert.match(body.result.code, SUCCESS_PATTERN, response.body);
      const entry = lastEntry();
      const areq = areqOf(entry);
      assert.deepEqual([areq['deviceChannel'], areq['sdkTransID'], areq['sdkAppID'], areq['messageCategory']], ['01', params['sdkTransID'], params['sdkAppID'], '01']);
      assert.equal(areq['threeDSCompInd'], undefined, 'no 3DS Method on the app channel');
      assert.deepEqual([body.threeDSecure.authenticationStatus, body.threeDSecure.eci, body.threeDSecure.acsTransactionId, body.threeDSecure.dsTransactionId], ['Y', '05', entry.acsTransID, entry.dsTransID]);
      assert.equal(body.redirect, undefined);
      assert.equal(body.threeDSecure.deviceInfo, undefined, 'deviceInfo is never echoed');
    });

    it('app with a deviceInfo that is not the SDK\'s authRequestParams: 400 naming threeDSecure.deviceInfo, 200.300.404, no AReq sent', async () => {
      const before = host.log.entries().length;
      const cases: [string, string][] = [
        ['not base64 JSON', 'eyJzZGtBcHBJRCI6InNpbXVsYXRlZCJ9.c2ltdWxhdGVkLWF1dGgtcmVxdWVzdC1wYXJhbXM'],
        ['sdkTransID not a UUID', deviceInfoOf(sdkAuthRequestParams({ sdkTransID: 'abc' }))],
        ['a private key', deviceInfoOf(sdkAuthRequestParams({ sdkEphemPubKey: { kty: 'EC', crv: 'P-256', x: 'AA', y: 'BB', d: 'CC' } }))],
        ['no deviceRenderOptions', deviceInfoOf(sdkAuthRequestParams({ deviceRenderOptions: undefined }))],
      ];
      for (const [name, deviceInfo] of cases) {
        const response = await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BILLING, 'card.number': Y_CARD, shopperResultUrl: RESULT_URL, 'threeDSecure.deviceInfo': deviceInfo });
        assert.equal(response.statusCode, 400, `${name}: ${response.body}`);
        const result = json(response).result;
        assert.equal(result.code, '200.300.404', name);
        assert.deepEqual(result.parameterErrors.map((e: { name: string }) => e.name), ['threeDSecure.deviceInfo'], name);
      }
      assert.equal(host.log.entries().length, before, 'no AReq for a refused request');
    });

    /** The app's challenge: the pending answer's data, checked; then the SDK's CReqs to the ACS. */
    async function startAppChallenge() {
      const params = sdkAuthRequestParams();
      const response = await appPay(CHALLENGE, params);
      const body = json(response);
      assert.equal(body.result.code, '000.200.000', response.body);
      assert.equal(body.redirect, undefined, 'no browser redirect for the app');
      const entry = lastEntry();
      const block = body.threeDSecure;
      assert.deepEqual(
        [block.authenticationStatus, block.threeDSServerTransactionId, block.acsTransactionId, block.dsTransactionId, block.acsReferenceNumber, block.sdkTransactionId, block.version],
        ['C', entry.threeDSServerTransID, entry.acsTransID, entry.dsTransID, 'EMULATOR_ACS_REF_0001', params['sdkTransID'], '2.2.0'],
      );
      const jws = jwsParts(block.acsSignedContent);
      assert.equal(jws.header.alg, 'ES256');
      assert.deepEqual(jws.payload.sdkEphemPubKey, params['sdkEphemPubKey'], 'the ACS signed the SDK\'s key');
      assert.ok(verify('sha256', Buffer.from(jws.input), { key: createPublicKey({ key: jws.payload.acsEphemPubKey, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, jws.signature), 'the signature verifies (with the emulator\'s key)');
      const creq = (counter: string, extra: Record<string, string>) => post(jws.payload.acsURL, JSON.stringify({
        messageType: 'CReq', messageVersion: '2.2.0', threeDSServerTransID: block.threeDSServerTransactionId, acsTransID: block.acsTransactionId, sdkTransID: params['sdkTransID'], sdkCounterStoA: counter, ...extra,
      }));
      const first = JSON.parse((await creq('000', {})).text);
      assert.deepEqual([first.messageType, first.challengeCompletionInd], ['CRes', 'N'], 'the first CRes is the challenge screen');
      // The gateway's browser page is not for an app challenge.
      const row = (await t.storage.query<{ id: string }>('SELECT id FROM shopper_redirects WHERE transaction_id = $1', [body.id])).rows[0]!;
      assert.equal((await t.app.inject({ method: 'GET', url: `${CHALLENGE_START_PATH}/${row.id}` })).statusCode, 404);
      return { id: body.id as string, entry, creq };
    }

    it(`app challenge, the code ${CHALLENGE_CODE}: the ACS's RReq completes the payment (success), the status call shows the RReq's data`, async () => {
      const started = await startAppChallenge();
      assert.equal(json(await getPayment(t, merchant, started.id)).result.code, '000.200.000', 'pending until the RReq');
      const final = JSON.parse((await started.creq('001', { challengeDataEntry: CHALLENGE_CODE })).text);
      assert.deepEqual([final.messageType, final.challengeCompletionInd, final.transStatus], ['CRes', 'Y', 'Y']);
      const logged = host.log.get(started.entry.threeDSServerTransID)!;
      const rreq = logged.messages.find((m) => m.type === 'RReq')!.summary;
      assert.equal(logged.messages.find((m) => m.type === 'RRes' && m.direction === 'in')!.summary['resultsStatus'], '01');
      const stored = json(await getPayment(t, merchant, started.id));
      assert.match(stored.result.code, SUCCESS_PATTERN);
      assert.deepEqual(
        [stored.threeDSecure.authenticationStatus, stored.threeDSecure.eci, stored.threeDSecure.verificationId, stored.threeDSecure.acsTransactionId, stored.threeDSecure.challengeMandatedIndicator],
        ['Y', rreq['eci'], rreq['authenticationValue'], started.entry.acsTransID, 'Y'],
      );
      assert.equal(stored.threeDSecure.acsSignedContent, undefined, 'the SDK\'s start data ends with the challenge');
      // The emulator's challenge is finished: another CReq is refused.
      const again = JSON.parse((await started.creq('002', { challengeDataEntry: CHALLENGE_CODE })).text);
      assert.deepEqual([again.messageType, again.errorCode], ['Erro', '305']);
      // A replayed RReq (an N now) is refused with Erro 305 by the gateway and changes nothing.
      const replay = JSON.parse((await post(`${gatewayUrl}${RESULTS_PATH}`, JSON.stringify({
        messageType: 'RReq', messageVersion: '2.2.0', threeDSServerTransID: started.entry.threeDSServerTransID, acsTransID: started.entry.acsTransID, dsTransID: started.entry.dsTransID,
        messageCategory: '01', transStatus: 'N', transStatusReason: '01', eci: '07', interactionCounter: '01',
      }))).text);
      assert.deepEqual([replay.messageType, replay.errorCode], ['Erro', '305']);
      assert.match(json(await getPayment(t, merchant, started.id)).result.code, SUCCESS_PATTERN);
    });

    it('app challenge, a wrong code: the RReq\'s N declines with 800.400.200; Cancel declines with 100.390.124', async () => {
      const wrong = await startAppChallenge();
      const final = JSON.parse((await wrong.creq('001', { challengeDataEntry: '0000' })).text);
      assert.equal(final.transStatus, 'N');
      const declined = json(await getPayment(t, merchant, wrong.id));
      assert.equal(declined.result.code, '800.400.200');
      assert.deepEqual([declined.threeDSecure.authenticationStatus, declined.threeDSecure.eci], ['N', '07']);
      const cancelled = await startAppChallenge();
      await cancelled.creq('001', { challengeCancel: '01' });
      assert.equal(json(await getPayment(t, merchant, cancelled.id)).result.code, '100.390.124');
    });

    /** The scheme reference of an INITIAL CIT (authenticated frictionless): what the acquirer knows a series by. */
    let schemeReference: string | undefined;
    async function initialSchemeReference(): Promise<string> {
      if (schemeReference) return schemeReference;
      const initial = json(await postPayment(t, merchant, {
        amount: '15.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': Y_CARD, shopperResultUrl: RESULT_URL,
        'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT', 'standingInstruction.type': 'RECURRING',
      }));
      assert.match(initial.result.code, SUCCESS_PATTERN, JSON.stringify(initial));
      schemeReference = initial.standingInstruction.initialTransactionId as string;
      assert.ok(schemeReference, JSON.stringify(initial));
      return schemeReference;
    }

    /** A REPEATED MIT payment of the card asking for a 3RI. */
    const mitPay = async (number: string, extra: Record<string, string> = {}, flagged = true) => postPayment(t, merchant, {
      amount: '15.00', currency: 'EUR', paymentType: 'DB', ...WITHOUT_CVV, 'card.number': number,
      'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT', 'standingInstruction.type': 'RECURRING', 'standingInstruction.initialTransactionId': await initialSchemeReference(),
      ...(flagged ? { 'threeDSecure.threeRIInd': 'RECURRING' } : {}), ...extra,
    });

    it('3RI frictionless on a registration: the AReq is deviceChannel 03, threeRIInd 01, with the initial payment\'s acsTransID as the prior authentication', async () => {
      const initial = json(await postPayment(t, merchant, {
        amount: '15.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': Y_CARD, shopperResultUrl: RESULT_URL,
        createRegistration: 'true', 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT', 'standingInstruction.type': 'RECURRING',
      }));
      assert.match(initial.result.code, SUCCESS_PATTERN, JSON.stringify(initial));
      assert.ok(initial.registrationId);
      const mit = await t.app.inject({
        method: 'POST', url: `/v1/registrations/${initial.registrationId}/payments`, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: merchant.entityId, amount: '15.00', currency: 'EUR', paymentType: 'DB', 'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT', 'standingInstruction.type': 'RECURRING', 'threeDSecure.threeRIInd': 'RECURRING' }),
      });
      const body = json(mit);
      assert.match(body.result.code, SUCCESS_PATTERN, mit.body);
      const entry = lastEntry();
      const areq = areqOf(entry);
      assert.deepEqual([areq['deviceChannel'], areq['threeRIInd'], areq['messageCategory'], areq['priorAuthRef'], areq['priorAuthMethod']], ['03', '01', '01', initial.threeDSecure.acsTransactionId, '01']);
      assert.deepEqual([body.threeDSecure.authenticationStatus, body.threeDSecure.acsTransactionId], ['Y', entry.acsTransID]);
    });

    it('3RI without a registration: SPLIT_SHIPMENT is threeRIInd 06, no prior authentication, no browser data needed', async () => {
      const body = json(await mitPay(Y_CARD, { 'threeDSecure.threeRIInd': 'SPLIT_SHIPMENT' }));
      assert.match(body.result.code, SUCCESS_PATTERN, JSON.stringify(body));
      const areq = areqOf(lastEntry());
      assert.deepEqual([areq['deviceChannel'], areq['threeRIInd'], areq['priorAuthRef']], ['03', '06', undefined]);
    });

    it('3RI where the ACS answers C: no challenge is possible, so no result: declined 100.390.112, never a success', async () => {
      const body = json(await mitPay(CHALLENGE));
      assert.equal(body.result.code, '100.390.112', JSON.stringify(body));
      assert.equal(body.redirect, undefined);
      assert.equal(body.threeDSecure?.authenticationStatus, undefined);
      const entry = lastEntry();
      assert.deepEqual([areqOf(entry)['deviceChannel'], entry.messages.find((m) => m.type === 'ARes')!.summary['transStatus']], ['03', 'C']);
      assert.ok(t.logs.lines.some((line) => line.includes(entry.threeDSServerTransID) && line.includes('"reason":"challenge-to-3ri"')), 'the no result is logged with its reason');
      assert.equal(t.logs.text.includes(CHALLENGE), false, 'no card number in the log');
    });

    it('3RI where the ACS answers N: declined 100.390.121 (3RI transaction rejected)', async () => {
      const body = json(await mitPay(N_CARD));
      assert.equal(body.result.code, '100.390.121', JSON.stringify(body));
      const entry = lastEntry();
      assert.deepEqual([areqOf(entry)['deviceChannel'], entry.messages.find((m) => m.type === 'ARes')!.summary['transStatus']], ['03', 'N']);
    });

    it('a MIT without the 3RI flags is not authenticated, as before: no AReq', async () => {
      await initialSchemeReference();
      const before = host.log.entries().length;
      const body = json(await mitPay(Y_CARD, {}, false));
      assert.match(body.result.code, SUCCESS_PATTERN, JSON.stringify(body));
      assert.equal(host.log.entries().length, before);
    });
  });

  describe(`the live system through a 3DS server route: an app challenge and a 3RI (${db.name})`, () => {
    const https = { 'x-forwarded-proto': 'https' };
    let host: ThreeDsHost;
    let t: TestApp;
    let proxy: Server;
    let merchant: Merchant;

    before(async () => {
      host = await startThreeDsHost({ port: 0, rreqTimeoutMs: 10_000 });
      // The live gateway takes HTTPS only: the ACS reaches it through a stand-in for its TLS proxy, which says so.
      proxy = createHttpServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          void t.app.inject({ method: request.method as 'POST', url: request.url!, headers: { ...request.headers, ...https }, payload: Buffer.concat(chunks) }).then((answer) => {
            response.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'text/plain') }).end(answer.body);
          });
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
      t = await startTestApp(await db.open(), { env: { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true', PUBLIC_URL: proxyUrl, LOG_LEVEL: 'warn' } });
      merchant = await t.createMerchant('Live app shop');
      const admin = { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS, ...https };
      await setThreeDSecureRequirement(t.app, merchant.entityId, 'always', https);
      const route = await t.app.inject({ method: 'POST', url: '/admin/routes', headers: admin, payload: form({ connector: 'emv3ds-server', entity: merchant.entityId, 'credentials[dsUrl]': `${host.url}/ds/areq` }) });
      assert.equal(route.statusCode, 201, route.body);
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      await new Promise((resolve) => proxy.close(resolve));
      await host.close();
    });

    const standalone = (fields: Record<string, string>) => t.app.inject({
      method: 'POST', url: '/v1/threeDSecure', headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS, ...https },
      payload: form({ entityId: merchant.entityId, amount: '10.00', currency: 'EUR', ...SAMPLE_CARD, ...fields }),
    });

    it('an app challenge (standalone authentication): the route\'s ARes hands the SDK data over; the RReq ends it, GET shows Y', async () => {
      const params = sdkAuthRequestParams();
      const response = await standalone({ ...BILLING, 'card.number': CHALLENGE, shopperResultUrl: RESULT_URL, 'threeDSecure.deviceInfo': deviceInfoOf(params) });
      const body = json(response);
      assert.equal(body.result.code, '000.200.000', response.body);
      assert.deepEqual([body.threeDSecure.authenticationStatus, body.threeDSecure.sdkTransactionId, body.redirect], ['C', params['sdkTransID'], undefined]);
      const acsURL = jwsParts(body.threeDSecure.acsSignedContent).payload.acsURL as string;
      const final = JSON.parse((await post(acsURL, JSON.stringify({
        messageType: 'CReq', messageVersion: body.threeDSecure.version, threeDSServerTransID: body.threeDSecure.threeDSServerTransactionId, acsTransID: body.threeDSecure.acsTransactionId,
        sdkTransID: params['sdkTransID'], sdkCounterStoA: '000', challengeDataEntry: CHALLENGE_CODE,
      }))).text);
      assert.deepEqual([final.messageType, final.transStatus], ['CRes', 'Y']);
      const logged = host.log.get(body.threeDSecure.threeDSServerTransactionId)!;
      assert.equal(logged.messages.find((m) => m.type === 'RRes' && m.direction === 'in')?.summary['resultsStatus'], '01', JSON.stringify(logged.messages));
      const got = json(await t.app.inject({ method: 'GET', url: `/v1/threeDSecure/${body.id}?entityId=${merchant.entityId}`, headers: { ...bearer(merchant.accessToken), ...https } }));
      assert.match(got.result.code, SUCCESS_PATTERN);
      assert.deepEqual([got.threeDSecure.authenticationStatus, got.threeDSecure.eci, got.threeDSecure.acsSignedContent], ['Y', '05', undefined]);
    });

    it('a 3RI (standalone, threeRIInd DELAYED_SHIPMENT): deviceChannel 03, threeRIInd 06 through the route; a C is refused', async () => {
      const y = json(await standalone({ 'card.number': Y_CARD, 'threeDSecure.threeRIInd': 'DELAYED_SHIPMENT' }));
      assert.equal(y.result.code, '000.400.110', JSON.stringify(y));
      const areq = areqOfTrans(host, y.threeDSecure.dsTransactionId);
      assert.deepEqual([areq['deviceChannel'], areq['threeRIInd']], ['03', '06']);
      const c = json(await standalone({ 'card.number': CHALLENGE, 'threeDSecure.threeRIInd': 'RECURRING' }));
      assert.equal(c.result.code, '100.390.112', JSON.stringify(c));
      assert.equal(c.redirect, undefined);
    });
  });

}
