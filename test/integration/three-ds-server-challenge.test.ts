/**
 * The browser challenge through the gateway's own 3DS server (issue 37) against the 3DS test
 * platform (emulators/three-ds-host), started in-process. The gateway listens on a real port: the
 * platform's ACS posts its RReq to the gateway's threeDSServerURL over HTTP, as a real ACS would.
 * The shopper's browser is played by form posts: the payment's redirect to the ACS, the challenge
 * page's answer, then the final CRes to the gateway's notificationURL. Only the RReq decides:
 * a CRes without one declines, a replayed or foreign RReq is refused with an Erro and changes
 * nothing, and no other way back can end the challenge.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, CHALLENGE_CODE, exampleCard } from '../../emulators/three-ds-host/table.js';
import { CHALLENGE_START_PATH, NOTIFICATION_PATH, RESULTS_PATH } from '../../src/connectors/emv3ds-server/server.js';
import { testDatabases } from '../support/databases.js';
import { getPayment, postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, type TestApp } from '../support/test-app.js';
import { BROWSER } from '../support/three-d-secure.js';
import { inputValue, post, postForm } from '../support/three-ds-host.js';
import { freePort } from '../support/free-port.js';

const RESULT_URL = 'https://shop.example.com/result';
const CHALLENGE = exampleCard(CARD_RANGES.find((r) => r.outcome === 'challenge')!);


interface Started {
  readonly paymentId: string;
  readonly redirect: { url: string; method: string; parameters: { name: string; value: string }[] };
  readonly creq: Record<string, string>;
  readonly session: string;
}

for (const db of testDatabases()) {
  describe(`the browser challenge through the 3DS server connector (${db.name})`, () => {
    let host: ThreeDsHost;
    let t: TestApp;
    let gatewayUrl: string;
    let merchant: Merchant;
    let standalone: Merchant;

    before(async () => {
      host = await startThreeDsHost({ port: 0, rreqTimeoutMs: 5_000 });
      const port = await freePort();
      gatewayUrl = `http://127.0.0.1:${port}`;
      t = await startTestApp(await db.open(), { env: { THREE_DS_SERVER_DS_URL: `${host.url}/ds/areq`, PUBLIC_URL: gatewayUrl, LOG_LEVEL: 'info' } });
      await t.app.listen({ port, host: '127.0.0.1' });
      merchant = await t.createMerchant('Challenge shop');
      standalone = await t.createMerchant('Standalone shop');
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      await host.close();
    });

    /**
     * The payment's redirect leads to the gateway's own page (GET, no parameters), which posts the
     * CReq to the ACS: its form, read as the browser would submit it.
     */
    async function acsFormOf(redirect: { url: string; method: string; parameters: unknown[] }): Promise<Started['redirect']> {
      const url = new URL(redirect.url);
      assert.deepEqual([url.pathname.startsWith(`${CHALLENGE_START_PATH}/`), redirect.method, redirect.parameters], [true, 'GET', []], JSON.stringify(redirect));
      const page = await t.app.inject({ method: 'GET', url: url.pathname });
      assert.equal(page.statusCode, 200, page.body);
      assert.match(String(page.headers['content-security-policy']), new RegExp(`form-action ${host.url.replace(/[.:/]/g, '\\$&')};`));
      const action = /<form method="post" action="([^"]+)">/.exec(page.body)![1]!;
      const parameters = [...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => ({ name: m[1]!, value: m[2]! }));
      return { url: action.replace(/&amp;/g, '&'), method: 'POST', parameters };
    }

    /** A payment of the challenge card: pending, with the redirect to the gateway's page that posts the CReq to the ACS. */
    async function start(): Promise<Started> {
      const response = await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': CHALLENGE, shopperResultUrl: RESULT_URL });
      const body = json(response);
      assert.equal(body.result.code, '000.200.000', response.body);
      const redirect = await acsFormOf(body.redirect);
      const field = (name: string) => redirect.parameters.find((p: { name: string }) => p.name === name)?.value as string;
      const creq = JSON.parse(Buffer.from(field('creq'), 'base64url').toString('utf8'));
      return { paymentId: body.id, redirect, creq, session: field('threeDSSessionData') };
    }

    /** The shopper on the ACS: its page, then the code (or Cancel); the ACS sends the RReq, then hands the browser the CRes. */
    async function answerChallenge(started: Started, action: 'verify' | 'cancel', code = ''): Promise<{ cres: string; threeDSSessionData: string }> {
      const page = await postForm(started.redirect.url, Object.fromEntries(started.redirect.parameters.map((p) => [p.name, p.value])));
      assert.equal(page.status, 200, page.text);
      const acsTransID = inputValue(page.text, 'acsTransID')!;
      const result = await postForm(`${host.url}/acs/challenge/submit`, { acsTransID, code, action, threeDSSessionData: started.session });
      assert.equal(result.status, 200);
      return { cres: inputValue(result.text, 'cres')!, threeDSSessionData: inputValue(result.text, 'threeDSSessionData')! };
    }

    const notify = (fields: { cres: string; threeDSSessionData: string }) =>
      t.app.inject({ method: 'POST', url: NOTIFICATION_PATH, headers: FORM_HEADERS, payload: form(fields) });

    const rreqOf = (started: Started, overrides: Record<string, string> = {}) => ({
      messageType: 'RReq', messageVersion: '2.2.0', threeDSServerTransID: started.creq['threeDSServerTransID'], acsTransID: started.creq['acsTransID'],
      dsTransID: host.log.get(started.creq['threeDSServerTransID']!)!.dsTransID, messageCategory: '01', transStatus: 'N', transStatusReason: '01', eci: '07', interactionCounter: '01', ...overrides,
    });

    const sendRReq = async (message: unknown) => JSON.parse((await post(`${gatewayUrl}${RESULTS_PATH}`, typeof message === 'string' ? message : JSON.stringify(message))).text);

    const redirectRow = async (started: Started) =>
      (await t.storage.query<{ state: string; resume: Record<string, any> }>('SELECT state, resume FROM shopper_redirects WHERE transaction_id = $1', [started.paymentId])).rows[0]!;

    it('ARes C: the payment\'s redirect leads to the gateway\'s page, which posts creq and threeDSSessionData to the ARes\'s acsURL, the CReq valid and of the ARes\'s transaction', async () => {
      const started = await start();
      assert.equal(started.redirect.url, `${host.url}/acs/challenge`);
      assert.equal(started.redirect.method, 'POST');
      const entry = host.log.get(started.creq['threeDSServerTransID']!)!;
      assert.equal(entry.outcome, 'challenge');
      assert.deepEqual([started.creq['messageType'], started.creq['messageVersion'], started.creq['acsTransID'], started.creq['challengeWindowSize']], ['CReq', '2.2.0', entry.acsTransID, '05']);
      const row = await redirectRow(started);
      assert.deepEqual([row.resume['threeDSServerTransID'], row.resume['acsTransactionId'], row.resume['dsTransactionId'], row.resume['acsURL'], row.resume['messageVersion']], [entry.threeDSServerTransID, entry.acsTransID, entry.dsTransID, `${host.url}/acs/challenge`, '2.2.0']);
      assert.equal(Buffer.from(started.session, 'base64url').toString('utf8').length, 32, 'threeDSSessionData names the redirect');
      assert.equal(JSON.stringify(row.resume).includes(CHALLENGE), false, 'no card number in the redirect\'s resume');
      // Not a widget payment: nobody may frame the gateway's page; an id of nothing gets the ended page.
      const page = await t.app.inject({ method: 'GET', url: `${CHALLENGE_START_PATH}/${Buffer.from(started.session, 'base64url').toString('utf8')}` });
      assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
      assert.equal(page.headers['x-frame-options'], 'DENY');
      assert.equal((await t.app.inject({ method: 'GET', url: `${CHALLENGE_START_PATH}/${'0'.repeat(32)}` })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: `${CHALLENGE_START_PATH}/not-an-id` })).statusCode, 404);
    });

    it(`the code ${CHALLENGE_CODE}: the RReq's Y, eci and authenticationValue are stored, the RRes answered, and the payment succeeds`, async () => {
      const started = await start();
      const cres = await answerChallenge(started, 'verify', CHALLENGE_CODE);
      const entry = host.log.get(started.creq['threeDSServerTransID']!)!;
      const rreq = entry.messages.find((m) => m.type === 'RReq')!.summary;
      const rres = entry.messages.find((m) => m.type === 'RRes' && m.direction === 'in')!.summary;
      assert.equal(rres['resultsStatus'], '01', 'the gateway answered the RRes');
      const back = await notify(cres);
      assert.equal(back.statusCode, 200, back.body);
      assert.match(back.body, /http-equiv="refresh" content="0;url=https:\/\/shop\.example\.com\/result\?id=/);
      const stored = json(await getPayment(t, merchant, started.paymentId));
      assert.match(stored.result.code, SUCCESS_PATTERN);
      assert.deepEqual(
        [stored.threeDSecure.authenticationStatus, stored.threeDSecure.eci, stored.threeDSecure.verificationId, stored.threeDSecure.dsTransactionId, stored.threeDSecure.acsTransactionId, stored.threeDSecure.version],
        ['Y', rreq['eci'], rreq['authenticationValue'], entry.dsTransID, entry.acsTransID, '2.2.0'],
      );
      assert.equal(rreq['eci'], '05');
      assert.ok(rreq['authenticationValue']);
      assert.equal((await redirectRow(started)).state, 'completed');
    });

    it('a wrong code: the RReq\'s N declines with 800.400.200', async () => {
      const started = await start();
      await notify(await answerChallenge(started, 'verify', '0000'));
      const stored = json(await getPayment(t, merchant, started.paymentId));
      assert.equal(stored.result.code, '800.400.200');
      assert.deepEqual([stored.threeDSecure.authenticationStatus, stored.threeDSecure.eci, stored.threeDSecure.verificationId], ['N', '07', undefined]);
    });

    it('Cancel: the RReq\'s N with challengeCancel declines with 100.390.124', async () => {
      const started = await start();
      await notify(await answerChallenge(started, 'cancel'));
      assert.equal(json(await getPayment(t, merchant, started.paymentId)).result.code, '100.390.124');
    });

    it('a replayed RReq is refused with Erro 305 and changes nothing: the first result stands', async () => {
      const started = await start();
      const cres = await answerChallenge(started, 'verify', CHALLENGE_CODE);
      const before = (await redirectRow(started)).resume['challengeResult'];
      assert.equal(before.transStatus, 'Y');
      const erro = await sendRReq(rreqOf(started));
      assert.deepEqual([erro.messageType, erro.errorCode, erro.errorComponent, erro.threeDSServerTransID], ['Erro', '305', 'S', started.creq['threeDSServerTransID']]);
      assert.deepEqual((await redirectRow(started)).resume['challengeResult'], before);
      await notify(cres);
      const stored = json(await getPayment(t, merchant, started.paymentId));
      assert.match(stored.result.code, SUCCESS_PATTERN);
      assert.equal(stored.threeDSecure.authenticationStatus, 'Y');
    });

    it('a foreign RReq (an unknown threeDSServerTransID, or another acsTransID) is refused with Erro 301 and changes nothing', async () => {
      const started = await start();
      const unknown = await sendRReq(rreqOf(started, { threeDSServerTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e' }));
      assert.deepEqual([unknown.messageType, unknown.errorCode], ['Erro', '301']);
      const otherAcs = await sendRReq(rreqOf(started, { acsTransID: 'd7c1ee99-9478-44a6-b1f2-391e29c6b340' }));
      assert.deepEqual([otherAcs.messageType, otherAcs.errorCode], ['Erro', '301']);
      const row = await redirectRow(started);
      assert.equal(row.resume['challengeResult'], undefined);
      assert.equal(row.state, 'open');
      // The genuine challenge still ends as its own RReq says.
      await notify(await answerChallenge(started, 'verify', CHALLENGE_CODE));
      assert.match(json(await getPayment(t, merchant, started.paymentId)).result.code, SUCCESS_PATTERN);
    });

    it('a malformed RReq is refused with the message layer\'s Erro (101 not JSON, 201 missing fields, 203 malformed)', async () => {
      const started = await start();
      assert.equal((await sendRReq('not json')).errorCode, '101');
      const { transStatus: _status, ...withoutStatus } = rreqOf(started);
      assert.equal((await sendRReq(withoutStatus)).errorCode, '201');
      assert.equal((await sendRReq(rreqOf(started, { eci: 'x' }))).errorCode, '203');
      assert.equal((await redirectRow(started)).resume['challengeResult'], undefined);
    });

    it('a CRes before any RReq declines with 100.390.112, never a success; an RReq after it is refused', async () => {
      const started = await start();
      const cres = Buffer.from(JSON.stringify({ messageType: 'CRes', messageVersion: '2.2.0', threeDSServerTransID: started.creq['threeDSServerTransID'], acsTransID: started.creq['acsTransID'], challengeCompletionInd: 'Y', transStatus: 'Y' })).toString('base64url');
      const back = await notify({ cres, threeDSSessionData: started.session });
      assert.equal(back.statusCode, 200);
      const stored = json(await getPayment(t, merchant, started.paymentId));
      assert.equal(stored.result.code, '100.390.112');
      assert.equal(stored.threeDSecure, undefined, 'no authentication data without an RReq');
      const late = await sendRReq(rreqOf(started, { transStatus: 'Y', eci: '05', authenticationValue: 'AJkBBkhgQQAAAE4gSEJydQAAAAA=' }));
      assert.deepEqual([late.messageType, late.errorCode], ['Erro', '305']);
      assert.equal(json(await getPayment(t, merchant, started.paymentId)).result.code, '100.390.112');
    });

    it('no other way back ends the challenge: the return link with outcome=Y, the simulated ACS page, a CRes of another transaction, a foreign session', async () => {
      const started = await start();
      const redirectId = Buffer.from(started.session, 'base64url').toString('utf8');
      const viaReturn = await t.app.inject({ method: 'POST', url: `/v1/redirects/${redirectId}/return`, headers: FORM_HEADERS, payload: form({ outcome: 'Y' }) });
      assert.equal(viaReturn.statusCode, 404);
      for (const method of ['GET', 'POST'] as const) {
        const simulated = await t.app.inject({ method, url: `/v1/simulator/acs/${redirectId}`, ...(method === 'POST' ? { headers: FORM_HEADERS, payload: form({ outcome: 'Y' }) } : {}) });
        assert.equal(simulated.statusCode, 404, `${method} on the simulated ACS page`);
      }
      const foreignCres = Buffer.from(JSON.stringify({ messageType: 'CRes', messageVersion: '2.2.0', threeDSServerTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e', acsTransID: started.creq['acsTransID'], challengeCompletionInd: 'Y', transStatus: 'Y' })).toString('base64url');
      assert.equal((await notify({ cres: foreignCres, threeDSSessionData: started.session })).statusCode, 404);
      assert.equal((await notify({ cres: 'not-a-cres', threeDSSessionData: started.session })).statusCode, 404);
      assert.equal((await notify({ cres: foreignCres, threeDSSessionData: 'AAAA' })).statusCode, 404);
      assert.equal((await redirectRow(started)).state, 'open');
      assert.equal(json(await getPayment(t, merchant, started.paymentId)).result.code, '000.200.000');
    });

    it('a standalone authentication\'s challenge ends with the RReq\'s data too', async () => {
      const response = await t.app.inject({
        method: 'POST', url: '/v1/threeDSecure', headers: { ...bearer(standalone.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: standalone.entityId, amount: '10.00', currency: 'EUR', ...SAMPLE_CARD, ...BROWSER, 'card.number': CHALLENGE, shopperResultUrl: RESULT_URL }),
      });
      const body = json(response);
      assert.equal(body.result.code, '000.200.000', response.body);
      const redirect = await acsFormOf(body.redirect);
      const field = (name: string) => redirect.parameters.find((p: { name: string }) => p.name === name)?.value as string;
      const started: Started = { paymentId: body.id, redirect, creq: JSON.parse(Buffer.from(field('creq'), 'base64url').toString('utf8')), session: field('threeDSSessionData') };
      await notify(await answerChallenge(started, 'verify', CHALLENGE_CODE));
      const rreq = host.log.get(started.creq['threeDSServerTransID']!)!.messages.find((m) => m.type === 'RReq')!.summary;
      const stored = json(await t.app.inject({ method: 'GET', url: `/v1/threeDSecure/${body.id}?entityId=${standalone.entityId}`, headers: bearer(standalone.accessToken) }));
      assert.match(stored.result.code, SUCCESS_PATTERN);
      assert.deepEqual([stored.threeDSecure.authenticationStatus, stored.threeDSecure.eci, stored.threeDSecure.verificationId], ['Y', '05', rreq['authenticationValue']]);
    });

    it('no log line holds a card number or an RReq\'s authenticationValue; each RReq is logged by its transaction id and outcome', () => {
      assert.equal(t.logs.text.includes(CHALLENGE), false);
      assert.ok(t.logs.lines.some((line) => line.includes('3-D Secure RReq') && line.includes('"outcome":"recorded"')));
      assert.ok(t.logs.lines.some((line) => line.includes('"outcome":"replayed"')));
      for (const entry of host.log.entries()) {
        const value = entry.messages.find((m) => m.type === 'RReq')?.summary['authenticationValue'];
        if (value) assert.equal(t.logs.text.includes(value), false);
      }
    });
  });
}
