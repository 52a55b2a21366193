/**
 * The challenge's edges (docs/three-d-secure.md): a challenge of the gateway's own 3DS server
 * whose RReq never comes ends after THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES (here 5), not only
 * at the redirect's expiry (REDIRECT_EXPIRY_MINUTES, 30 by default): the expiry job's operation
 * declines the payment with 100.390.124 (abandoned) and wipes the sealed card, and an RReq or a
 * CRes after that changes nothing. A challenge whose RReq came in time waits for the shopper's CRes
 * the redirect's whole life. The gateway's clock is the test's (ManualClock): the job's operation
 * runs at chosen instants; the emulator's ACS sends its RReq over HTTP to the listening gateway.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, CHALLENGE_CODE, exampleCard } from '../../emulators/three-ds-host/table.js';
import { NOTIFICATION_PATH } from '../../src/connectors/emv3ds-server/server.js';
import { expireRedirects } from '../../src/operations/redirects/expire-redirects.js';
import { testDatabases } from '../support/databases.js';
import { getPayment, postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, type TestApp } from '../support/test-app.js';
import { BROWSER } from '../support/three-d-secure.js';
import { inputValue, postForm } from '../support/three-ds-host.js';
import { freePort } from '../support/free-port.js';

const CHALLENGE = exampleCard(CARD_RANGES.find((r) => r.outcome === 'challenge')!);
const MINUTE = 60_000;


for (const db of testDatabases()) {
  describe(`a challenge whose RReq never comes ends after THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES (${db.name})`, () => {
    let host: ThreeDsHost;
    let t: TestApp;
    let merchant: Merchant;

    before(async () => {
      host = await startThreeDsHost({ port: 0, rreqTimeoutMs: 5_000 });
      const port = await freePort();
      t = await startTestApp(await db.open(), { env: { THREE_DS_SERVER_DS_URL: `${host.url}/ds/areq`, PUBLIC_URL: `http://127.0.0.1:${port}`, THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES: '5', LOG_LEVEL: 'warn' } });
      await t.app.listen({ port, host: '127.0.0.1' });
      merchant = await t.createMerchant('Timeout shop');
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      await host.close();
    });

    /** A challenge payment: pending, and the ACS's form (creq, threeDSSessionData) from the gateway's page. */
    async function start(): Promise<{ id: string; action: string; fields: Record<string, string> }> {
      const body = json(await postPayment(t, merchant, { amount: '61.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': CHALLENGE, shopperResultUrl: 'https://shop.example.com/result' }));
      assert.equal(body.result.code, '000.200.000', JSON.stringify(body));
      const page = await t.app.inject({ method: 'GET', url: new URL(body.redirect.url).pathname });
      const action = /<form method="post" action="([^"]+)">/.exec(page.body)![1]!.replace(/&amp;/g, '&');
      const fields = Object.fromEntries([...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]));
      return { id: body.id, action, fields };
    }
    /** The shopper types the code on the ACS's page: the ACS sends its RReq, and hands back the CRes. */
    async function answer(started: { action: string; fields: Record<string, string> }) {
      const page = await postForm(started.action, started.fields);
      assert.equal(page.status, 200, page.text);
      const result = await postForm(`${host.url}/acs/challenge/submit`, { acsTransID: inputValue(page.text, 'acsTransID')!, code: CHALLENGE_CODE, action: 'verify', threeDSSessionData: started.fields['threeDSSessionData']! });
      assert.equal(result.status, 200, result.text);
      return { cres: inputValue(result.text, 'cres')!, threeDSSessionData: inputValue(result.text, 'threeDSSessionData')! };
    }
    const row = async (paymentId: string) =>
      (await t.storage.query<{ state: string; sealed: boolean; expires_at: Date; created_at: Date }>('SELECT state, sealed_method IS NOT NULL AS sealed, expires_at, created_at FROM shopper_redirects WHERE transaction_id = $1', [paymentId])).rows[0]!;
    const expire = () => expireRedirects(t.app.gateway.payments, 100);

    it('no RReq: still open just before the timeout, declined 100.390.124 by the expiry right after it, the card wiped', async () => {
      const started = await start();
      const opened = await row(started.id);
      assert.equal(new Date(opened.expires_at).getTime() - new Date(opened.created_at).getTime(), 5 * MINUTE, 'the challenge timeout, not the redirect\'s 30 minutes');
      t.clock.advance(5 * MINUTE - 1_000);
      assert.equal(await expire(), 0);
      assert.equal(json(await getPayment(t, merchant, started.id)).result.code, '000.200.000');
      t.clock.advance(2_000);
      assert.equal(await expire(), 1);
      const ended = json(await getPayment(t, merchant, started.id));
      assert.equal(ended.result.code, '100.390.124', JSON.stringify(ended));
      assert.deepEqual([(await row(started.id)).state, (await row(started.id)).sealed], ['expired', false]);

      // The shopper answers late: the ACS's RReq is refused (Erro 305, the challenge has ended), its CRes finds the link ended.
      const late = await answer(started);
      const entry = host.log.get(started.fields['creq'] ? JSON.parse(Buffer.from(started.fields['creq'], 'base64url').toString('utf8')).threeDSServerTransID : '')!;
      const back = entry.messages.find((m) => m.direction === 'in' && (m.type === 'Erro' || m.type === 'RRes'));
      assert.deepEqual([back?.type, back?.summary['errorCode']], ['Erro', '305']);
      const notified = await t.app.inject({ method: 'POST', url: NOTIFICATION_PATH, headers: FORM_HEADERS, payload: form(late) });
      assert.notEqual(notified.statusCode, 200);
      assert.equal(json(await getPayment(t, merchant, started.id)).result.code, '100.390.124', 'nothing changed');
    });

    it('the RReq in time: the challenge waits for the shopper the redirect\'s life, past the timeout, and succeeds', async () => {
      const started = await start();
      t.clock.advance(4 * MINUTE);
      const cres = await answer(started);
      const recorded = await row(started.id);
      assert.equal(new Date(recorded.expires_at).getTime() - new Date(recorded.created_at).getTime(), 30 * MINUTE, 'REDIRECT_EXPIRY_MINUTES from the start');
      t.clock.advance(10 * MINUTE);
      assert.equal(await expire(), 0);
      const notified = await t.app.inject({ method: 'POST', url: NOTIFICATION_PATH, headers: FORM_HEADERS, payload: form(cres) });
      assert.equal(notified.statusCode, 200, notified.body);
      const paid = json(await getPayment(t, merchant, started.id));
      assert.match(paid.result.code, SUCCESS_PATTERN);
      assert.equal(paid.threeDSecure.authenticationStatus, 'Y');
    });

    it('a standalone authentication\'s challenge without RReq ends after the timeout too: 100.390.124', async () => {
      const created = json(await t.app.inject({
        method: 'POST', url: '/v1/threeDSecure', headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: merchant.entityId, amount: '10.00', currency: 'EUR', ...SAMPLE_CARD, ...BROWSER, 'card.number': CHALLENGE, shopperResultUrl: 'https://shop.example.com/result' }),
      }));
      assert.equal(created.result.code, '000.200.000', JSON.stringify(created));
      const read = async () => json(await t.app.inject({ method: 'GET', url: `/v1/threeDSecure/${created.id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) }));
      t.clock.advance(5 * MINUTE - 1_000);
      assert.equal(await expire(), 0);
      assert.equal((await read()).result.code, '000.200.000');
      t.clock.advance(2_000);
      assert.equal(await expire(), 1);
      assert.equal((await read()).result.code, '100.390.124');
    });
  });
}
