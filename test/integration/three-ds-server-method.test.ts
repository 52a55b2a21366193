/**
 * The 3DS Method through the gateway's own 3DS server (issue 37) against the 3DS test platform,
 * on both databases. The card ranges (PReq) name the ACS's threeDSMethodURL for the method row:
 * the payment answers pending with a redirect to the gateway's method page instead of sending its
 * AReq. The shopper's browser is played by form posts: the page's hidden form to the ACS's method
 * URL, the ACS page's form back to the gateway's notification URL, then the page's continue.
 * Notified: the AReq says threeDSCompInd Y and the method row answers frictionless; not notified:
 * N, and the method row challenges. Every notification counts once, and one AReq goes per method.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, CHALLENGE_CODE, exampleCard } from '../../emulators/three-ds-host/table.js';
import { METHOD_NOTIFICATION_PATH, METHOD_PAGE_PATH, METHOD_SCRIPT_PATH } from '../../src/connectors/emv3ds-server/method.js';
import { CHALLENGE_START_PATH, NOTIFICATION_PATH } from '../../src/connectors/emv3ds-server/server.js';
import { testDatabases } from '../support/databases.js';
import { getPayment, postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { form, FORM_HEADERS, json, startTestApp, type TestApp } from '../support/test-app.js';
import { BROWSER, setThreeDSecureRequirement } from '../support/three-d-secure.js';
import { inputValue, postForm } from '../support/three-ds-host.js';
import { freePort } from '../support/free-port.js';

const RESULT_URL = 'https://shop.example.com/result';
const METHOD_CARD = exampleCard(CARD_RANGES.find((r) => r.outcome === 'method')!);
const WITHOUT_METHOD = exampleCard(CARD_RANGES.find((r) => r.outcome === 'frictionless' && r.transStatus === 'Y' && !r.acsEndProtocolVersion)!);
/** Shorter than REDIRECT_EXPIRY_MINUTES' 30: a challenge after the method ends by the RReq's deadline. */
const CHALLENGE_TIMEOUT_MINUTES = 5;
const METHOD_TIMEOUT_MS = 300;


const masked = (pan: string) => `${pan.slice(0, 6)}******${pan.slice(-4)}`;

for (const db of testDatabases()) {
  describe(`the 3DS Method through the 3DS server connector (${db.name})`, () => {
    let host: ThreeDsHost;
    let t: TestApp;
    let gatewayUrl: string;
    let merchant: Merchant;

    before(async () => {
      host = await startThreeDsHost({ port: 0, rreqTimeoutMs: 5_000 });
      const port = await freePort();
      gatewayUrl = `http://127.0.0.1:${port}`;
      t = await startTestApp(await db.open(), {
        env: {
          THREE_DS_SERVER_DS_URL: `${host.url}/ds/areq`, THREE_DS_SERVER_PREQ_URL: `${host.url}/ds/preq`, THREE_DS_SERVER_METHOD_TIMEOUT_MS: String(METHOD_TIMEOUT_MS),
          THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES: String(CHALLENGE_TIMEOUT_MINUTES),
          PUBLIC_URL: gatewayUrl, LOG_LEVEL: 'info',
        },
      });
      await t.app.listen({ port, host: '127.0.0.1' });
      merchant = await t.createMerchant('Method shop');
      await setThreeDSecureRequirement(t.app, merchant.entityId, 'always');
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      await host.close();
    });

    interface Started {
      readonly paymentId: string;
      readonly redirectId: string;
      readonly page: string;
      readonly methodUrl: string;
      readonly methodData: string;
      readonly transId: string;
    }

    /** A payment of the method card: pending, its redirect the gateway's method page, read as a browser would. */
    async function start(pan = METHOD_CARD): Promise<Started> {
      const response = await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': pan, shopperResultUrl: RESULT_URL });
      const body = json(response);
      assert.equal(body.result.code, '000.200.000', response.body);
      const url = new URL(body.redirect.url);
      assert.deepEqual([url.origin, url.pathname.startsWith(`${METHOD_PAGE_PATH}/`), body.redirect.method, body.redirect.parameters], [gatewayUrl, true, 'GET', []]);
      const redirectId = url.pathname.slice(METHOD_PAGE_PATH.length + 1);
      const page = await t.app.inject({ method: 'GET', url: url.pathname });
      assert.equal(page.statusCode, 200, page.body);
      const methodUrl = /<form id="method-form" method="post" action="([^"]+)"/.exec(page.body)![1]!;
      const methodData = inputValue(page.body, 'threeDSMethodData')!;
      const data = JSON.parse(Buffer.from(methodData, 'base64url').toString('utf8'));
      return { paymentId: body.id, redirectId, page: page.body, methodUrl, methodData, transId: data.threeDSServerTransID };
    }

    /** The hidden iframe: the form post to the ACS's method URL; the ACS's page's form back to the notification URL. */
    async function runMethod(started: Started): Promise<{ action: string; data: string }> {
      const acsPage = await postForm(started.methodUrl, { threeDSMethodData: started.methodData });
      assert.equal(acsPage.status, 200, acsPage.text);
      return { action: /<form id="method" method="post" action="([^"]+)"/.exec(acsPage.text)![1]!, data: inputValue(acsPage.text, 'threeDSMethodData')! };
    }

    const notify = (threeDSMethodData: string) => t.app.inject({ method: 'POST', url: METHOD_NOTIFICATION_PATH, headers: FORM_HEADERS, payload: form({ threeDSMethodData }) });
    const goOn = (started: Started) => t.app.inject({ method: 'POST', url: `${METHOD_PAGE_PATH}/${started.redirectId}/continue`, headers: FORM_HEADERS, payload: '' });
    const aReqsOf = (transId: string) => (host.log.get(transId)?.messages ?? []).filter((m) => m.type === 'AReq').map((m) => m.summary);
    const redirectRow = async (started: Started) =>
      (await t.storage.query<{ state: string; resume: Record<string, any> }>('SELECT state, resume FROM shopper_redirects WHERE id = $1', [started.redirectId])).rows[0]!;

    it('the method page: threeDSMethodData of the transaction and the gateway\'s notification URL, a strict CSP, no inline script, no AReq yet', async () => {
      const started = await start();
      const data = JSON.parse(Buffer.from(started.methodData, 'base64url').toString('utf8'));
      assert.deepEqual(Object.keys(data).sort(), ['threeDSMethodNotificationURL', 'threeDSServerTransID']);
      assert.equal(data.threeDSMethodNotificationURL, `${gatewayUrl}${METHOD_NOTIFICATION_PATH}`);
      assert.equal(started.methodUrl, `${host.url}/acs/method`);
      assert.deepEqual(aReqsOf(started.transId), [], 'no AReq before the method');
      const page = await t.app.inject({ method: 'GET', url: `${METHOD_PAGE_PATH}/${started.redirectId}` });
      const csp = String(page.headers['content-security-policy']);
      assert.match(csp, /script-src 'self';/);
      assert.doesNotMatch(csp, /unsafe-inline|nonce-[^']*' *;? *script/);
      assert.match(csp, new RegExp(`frame-src ${host.url.replace(/[.:/]/g, '\\$&')} 'self'`));
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(page.headers['x-frame-options'], 'DENY');
      assert.deepEqual([...page.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]), [` src="${METHOD_SCRIPT_PATH}"`], 'one script, a file of the gateway\'s');
      const script = await t.app.inject({ method: 'GET', url: METHOD_SCRIPT_PATH });
      assert.deepEqual([script.statusCode, script.headers['content-type'], script.headers['x-content-type-options']], [200, 'text/javascript; charset=utf-8', 'nosniff']);
      assert.equal(JSON.stringify((await redirectRow(started)).resume).includes(METHOD_CARD), false, 'no card number in the resume');
    });

    it('notified: the AReq says threeDSCompInd Y in the method\'s transaction, the method row answers frictionless, the payment succeeds', async () => {
      const started = await start();
      const back = await runMethod(started);
      assert.equal(back.action, `${gatewayUrl}${METHOD_NOTIFICATION_PATH}`);
      const notified = await postForm(back.action, { threeDSMethodData: back.data });
      assert.equal(notified.status, 200, notified.text);
      const entry = host.log.get(started.transId)!;
      assert.deepEqual(entry.messages.map((m) => m.type), ['Method'], 'the ACS logged the method under the transaction');
      const done = await goOn(started);
      assert.equal(done.statusCode, 200, done.body);
      assert.match(done.body, /http-equiv="refresh" content="0;url=https:\/\/shop\.example\.com\/result\?id=/);
      // The log keeps each message under its threeDSServerTransID: the AReq went in the method's transaction.
      assert.deepEqual(aReqsOf(started.transId).map((a) => a['threeDSCompInd']), ['Y']);
      assert.deepEqual(host.log.get(started.transId)!.messages.map((m) => m.type), ['Method', 'AReq', 'ARes']);
      const stored = json(await getPayment(t, merchant, started.paymentId));
      assert.match(stored.result.code, SUCCESS_PATTERN);
      assert.deepEqual([stored.threeDSecure.authenticationStatus, stored.threeDSecure.eci, stored.threeDSecure.dsTransactionId], ['Y', '05', host.log.get(started.transId)!.dsTransID]);
      assert.equal((await redirectRow(started)).state, 'completed');
      assert.equal((await redirectRow(started)).resume['method'].completed, 'Y');
    });

    it(`not notified within the timeout: N, the method row challenges, and the code ${CHALLENGE_CODE} ends it`, async () => {
      const started = await start();
      await new Promise((resolve) => setTimeout(resolve, METHOD_TIMEOUT_MS));
      const done = await goOn(started);
      assert.equal(done.statusCode, 303, done.body);
      assert.equal(done.headers['location'], `${CHALLENGE_START_PATH}/${started.redirectId}`);
      assert.deepEqual(aReqsOf(started.transId).map((a) => a['threeDSCompInd']), ['N']);
      // As any protocol challenge, it waits for its RReq THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES from the ARes, not the redirect's 30.
      const opened = (await t.storage.query<{ expires_at: Date; created_at: Date }>('SELECT expires_at, created_at FROM shopper_redirects WHERE id = $1', [started.redirectId])).rows[0]!;
      const lifeMs = new Date(opened.expires_at).getTime() - new Date(opened.created_at).getTime();
      assert.ok(lifeMs > 0 && lifeMs <= CHALLENGE_TIMEOUT_MINUTES * 60_000 + 60_000, `the challenge ends ${lifeMs} ms after the method opened`);
      // The same redirect is now the ARes's challenge: the gateway's challenge page posts its CReq to the ACS.
      const challenge = await t.app.inject({ method: 'GET', url: String(done.headers['location']) });
      assert.equal(challenge.statusCode, 200, challenge.body);
      const acsUrl = /<form method="post" action="([^"]+)">/.exec(challenge.body)![1]!;
      const creq = inputValue(challenge.body, 'creq')!;
      const session = inputValue(challenge.body, 'threeDSSessionData')!;
      assert.equal(JSON.parse(Buffer.from(creq, 'base64url').toString('utf8')).threeDSServerTransID, started.transId);
      const acsPage = await postForm(acsUrl, { creq, threeDSSessionData: session });
      const result = await postForm(`${host.url}/acs/challenge/submit`, { acsTransID: inputValue(acsPage.text, 'acsTransID')!, code: CHALLENGE_CODE, action: 'verify', threeDSSessionData: session });
      const cres = await t.app.inject({ method: 'POST', url: NOTIFICATION_PATH, headers: FORM_HEADERS, payload: form({ cres: inputValue(result.text, 'cres')!, threeDSSessionData: inputValue(result.text, 'threeDSSessionData')! }) });
      assert.equal(cres.statusCode, 200, cres.body);
      const stored = json(await getPayment(t, merchant, started.paymentId));
      assert.match(stored.result.code, SUCCESS_PATTERN);
      assert.equal(stored.threeDSecure.authenticationStatus, 'Y');
      // The method page after the fact leads to the challenge's end, not to a second method.
      assert.equal((await t.app.inject({ method: 'GET', url: `${METHOD_PAGE_PATH}/${started.redirectId}` })).statusCode, 410);
    });

    it('a replayed notification, one after the page went on, an unknown transaction and malformed data are refused (409, 409, 404, 400) and change nothing', async () => {
      const started = await start();
      const back = await runMethod(started);
      assert.equal((await notify(back.data)).statusCode, 200);
      const replay = await notify(back.data);
      assert.equal(replay.statusCode, 409);
      assert.match(replay.body, /notified already/);
      const unknown = await notify(Buffer.from(JSON.stringify({ threeDSServerTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e' })).toString('base64url'));
      assert.equal(unknown.statusCode, 404);
      for (const bad of ['', 'not base64 !', Buffer.from('[1]').toString('base64url'), Buffer.from('{"threeDSServerTransID":"x"}').toString('base64url')]) {
        assert.equal((await notify(bad)).statusCode, 400, bad);
      }
      assert.equal((await goOn(started)).statusCode, 200);
      assert.equal((await notify(back.data)).statusCode, 409, 'after the page went on');
      // A method that was never notified, then a late notification after its AReq: refused, still N.
      const late = await start();
      const lateBack = await runMethod(late);
      assert.equal((await goOn(late)).statusCode, 303);
      assert.equal((await notify(lateBack.data)).statusCode, 409);
      assert.deepEqual(aReqsOf(late.transId).map((a) => a['threeDSCompInd']), ['N']);
      assert.equal((await redirectRow(late)).resume['method'].state, 'sent');
      assert.ok(t.logs.lines.some((line) => line.includes('3-D Secure method notification') && line.includes('"outcome":"replayed"')));
    });

    it('the page\'s continue racing a second continue and a late notification sends one AReq', async () => {
      for (let round = 0; round < 3; round++) {
        const started = await start();
        const back = await runMethod(started);
        const answers = await Promise.all([goOn(started), goOn(started), notify(back.data)]);
        assert.equal(aReqsOf(started.transId).length, 1, `round ${round}: ${answers.map((a) => a.statusCode).join(',')}`);
        const [first, second] = answers;
        const statuses = [first!.statusCode, second!.statusCode].sort();
        // One continue sent the AReq (200 frictionless, or 303 to the challenge); the other found it taken.
        assert.ok(statuses.includes(200) || statuses.includes(303), statuses.join(','));
        const payment = json(await getPayment(t, merchant, started.paymentId));
        const compInd = aReqsOf(started.transId)[0]!['threeDSCompInd'];
        assert.equal(payment.result.code === '000.200.000', compInd === 'N', 'N challenges (pending), Y goes through');
      }
    });

    it('a card whose range names no method URL: threeDSCompInd U and no method page', async () => {
      const response = await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': WITHOUT_METHOD, shopperResultUrl: RESULT_URL });
      const paid = json(response);
      assert.match(paid.result.code, SUCCESS_PATTERN);
      assert.equal(paid.redirect, undefined);
      const areqs = host.log.entries().filter((e) => e.maskedPan === masked(WITHOUT_METHOD)).map((e) => e.messages.map((m) => m.type));
      assert.deepEqual(areqs.at(-1), ['AReq', 'ARes'], 'no Method entry');
      const areq = host.log.entries().filter((e) => e.maskedPan === masked(WITHOUT_METHOD)).at(-1)!.messages[0]!.summary;
      assert.equal(areq['threeDSCompInd'], 'U');
    });

    it('no other way ends a method: the return link, the simulated ACS page, the challenge page, a CRes; an unknown or ended page', async () => {
      const started = await start();
      const viaReturn = await t.app.inject({ method: 'POST', url: `/v1/redirects/${started.redirectId}/return`, headers: FORM_HEADERS, payload: form({ outcome: 'Y' }) });
      assert.equal(viaReturn.statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/simulator/acs/${started.redirectId}` })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: `${CHALLENGE_START_PATH}/${started.redirectId}` })).statusCode, 404);
      const cres = Buffer.from(JSON.stringify({ messageType: 'CRes', messageVersion: '2.3.1', threeDSServerTransID: started.transId, acsTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e', challengeCompletionInd: 'Y', transStatus: 'Y' })).toString('base64url');
      const viaCres = await t.app.inject({ method: 'POST', url: NOTIFICATION_PATH, headers: FORM_HEADERS, payload: form({ cres, threeDSSessionData: Buffer.from(started.redirectId).toString('base64url') }) });
      assert.equal(viaCres.statusCode, 404);
      assert.deepEqual([(await redirectRow(started)).state, (await redirectRow(started)).resume['method'].state], ['open', 'waiting']);
      assert.equal((await t.app.inject({ method: 'GET', url: `${METHOD_PAGE_PATH}/${'0'.repeat(32)}` })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'POST', url: `${METHOD_PAGE_PATH}/${'0'.repeat(32)}/continue`, headers: FORM_HEADERS, payload: '' })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: `${METHOD_PAGE_PATH}/not-an-id` })).statusCode, 404);
    });

    it('no log line holds a card number', () => {
      assert.equal(t.logs.text.includes(METHOD_CARD), false);
      assert.equal(t.logs.text.includes(WITHOUT_METHOD), false);
    });
  });
}
