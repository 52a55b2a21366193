/**
 * 3DS server routes and mutual TLS (docs/three-d-secure.md, "3DS server routes"): on the live
 * system, without THREE_DS_SERVER_DS_URL, a route of connector emv3ds-server chooses the
 * directory an entity's payments are authenticated with, and the connector presents the route's
 * client certificate to the emulator's DS, which requires one (mutual TLS). The payment is then
 * authorised by the acquirer route (the acquirer host over TLS), as the live rehearsal does.
 * Without a certificate, with one of another CA, or trusting another CA than the DS's: no result,
 * declined where the entity requires 3-D Secure, never a success. Certificates are made at test
 * time (test/support/mutual-tls.ts); no key is ever shown by the admin API or logged.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startAcquirerHost, type AcquirerHost } from '../../emulators/acquirer-host/server.js';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, CHALLENGE_CODE, exampleCard } from '../../emulators/three-ds-host/table.js';
import { directoryTransport } from '../../src/connectors/emv3ds-server/mtls-fetch.js';
import { NOTIFICATION_PATH } from '../../src/connectors/emv3ds-server/server.js';
import type { Iso8583Connector } from '../../src/connectors/iso8583/connector.js';
import { ACQUIRER_HOST_CONNECTOR_ID } from '../../src/connectors/default-connectors.js';
import { testDatabases } from '../support/databases.js';
import { makePki } from '../support/mutual-tls.js';
import { getPayment, postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { inputValue } from '../support/three-ds-host.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';
import { BROWSER, setThreeDSecureRequirement } from '../support/three-d-secure.js';
import { selfSignedLocalhost } from './acquirer-host/tls-fixture.js';
import { freePort } from '../support/free-port.js';

const https = { 'x-forwarded-proto': 'https' };
const admin = { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS, ...https };
const pki = makePki();
const acquirerTls = selfSignedLocalhost();
const FRICTIONLESS_Y = exampleCard(CARD_RANGES.find((r) => r.outcome === 'frictionless' && r.transStatus === 'Y')!);
const CHALLENGE = exampleCard(CARD_RANGES.find((r) => r.outcome === 'challenge')!);
const RESULT_URL = 'https://shop.example.com/result';


for (const db of testDatabases()) {
  describe(`a live payment authenticated through a 3DS server route over mutual TLS (${db.name})`, { skip: pki && acquirerTls ? false : 'no openssl to make certificates' }, () => {
    let dir: string;
    let ds: ThreeDsHost;
    let acquirer: AcquirerHost;
    let t: TestApp;
    let merchant: Merchant;
    let threeDsRoute: string;

    const pay = (card = FRICTIONLESS_Y) => postPayment(t, merchant, { amount: '25.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': card, shopperResultUrl: RESULT_URL }, https);
    const rotate = async (credentials: Record<string, string>) => {
      const fields = Object.fromEntries(Object.entries(credentials).map(([name, value]) => [`credentials[${name}]`, value]));
      const answer = await t.app.inject({ method: 'POST', url: `/admin/routes/${threeDsRoute}/credentials`, headers: admin, payload: form(fields) });
      assert.equal(answer.statusCode, 200, answer.body);
    };
    const dsUrl = () => `${ds.url}/ds/areq`;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'three-ds-routes-'));
      ds = await startThreeDsHost({ port: 0, tls: { cert: pki!.server.cert, key: pki!.server.key, clientCa: pki!.ca } });
      acquirer = await startAcquirerHost({ tls: acquirerTls!, settlementDir: dir });
      writeFileSync(join(dir, 'ca.pem'), acquirerTls!.cert);
      t = await startTestApp(await db.open(), {
        env: { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true', LOG_LEVEL: 'warn', ACQUIRER_HOST_URL: `tls://localhost:${acquirer.port}`, ACQUIRER_HOST_CA_FILE: join(dir, 'ca.pem') },
      });
      merchant = await t.createMerchant('Live 3DS shop');
      await setThreeDSecureRequirement(t.app, merchant.entityId, 'always', https);
      const route = await t.app.inject({ method: 'POST', url: '/admin/routes', headers: admin, payload: form({ connector: ACQUIRER_HOST_CONNECTOR_ID, entity: merchant.entityId, 'credentials[terminalId]': 'TERM0001', 'credentials[merchantId]': 'REHEARSAL000001' }) });
      assert.equal(route.statusCode, 201, route.body);
    });
    after(async () => {
      (t.app.gateway.payments.connectors.registry.connectorById(ACQUIRER_HOST_CONNECTOR_ID) as Iso8583Connector).close();
      await t.close();
      await t.storage.close();
      await ds.close();
      await acquirer.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('without a 3DS server route and without THREE_DS_SERVER_DS_URL: refused with 000.400.104', async () => {
      const body = json(await pay());
      assert.equal(body.result.code, '000.400.104');
    });

    it('a 3DS server route beside the acquirer route of the same scope; its settings are checked, by name only', async () => {
      const refused = await t.app.inject({ method: 'POST', url: '/admin/routes', headers: admin, payload: form({ connector: 'emv3ds-server', entity: merchant.entityId, 'credentials[dsUrl]': 'http://127.0.0.1:1/ds/areq', 'credentials[caCert]': pki!.ca, 'credentials[mcc]': 'x' }) });
      assert.equal(refused.statusCode, 400, refused.body);
      const names = (json(refused).result.parameterErrors as { name: string }[]).map((error) => error.name).sort();
      assert.deepEqual(names, ['credentials[dsUrl]', 'credentials[mcc]']);
      assert.equal(refused.body.includes('BEGIN CERTIFICATE'), false);
      // The directory's CA is trusted, but no client certificate yet.
      const created = await t.app.inject({ method: 'POST', url: '/admin/routes', headers: admin, payload: form({ connector: 'emv3ds-server', entity: merchant.entityId, 'credentials[dsUrl]': dsUrl(), 'credentials[caCert]': pki!.ca, 'credentials[acquirerMerchantId]': 'LIVE-3DS-SHOP' }) });
      assert.equal(created.statusCode, 201, created.body);
      threeDsRoute = json(created).routeId;
      assert.ok(threeDsRoute, created.body);
    });

    it('a DS that requires a client certificate refuses the connector without one: no result, declined 100.390.112', async () => {
      const body = json(await pay());
      assert.equal(body.result.code, '100.390.112', JSON.stringify(body));
      assert.equal(body.threeDSecure, undefined);
      assert.ok(t.logs.lines.some((line) => line.includes('"reason":"http-403"')), 'the DS answered 403');
    });

    it('with the route\'s client certificate: authenticated over mutual TLS (frictionless Y), then authorised by the acquirer', async () => {
      await rotate({ dsUrl: dsUrl(), caCert: pki!.ca, clientCert: pki!.client.cert, clientKey: pki!.client.key, acquirerMerchantId: 'LIVE-3DS-SHOP' });
      const body = json(await pay());
      assert.equal(body.result.code, '000.000.000', JSON.stringify(body));
      assert.equal(body.threeDSecure.authenticationStatus, 'Y');
      assert.equal(body.threeDSecure.eci, '05');
      assert.equal(acquirer.ledger.charged(body.id), true);
      const entry = ds.log.entries().find((e) => e.dsTransID === body.threeDSecure.dsTransactionId);
      assert.ok(entry, 'the DS logged the AReq');
    });

    it('a client certificate of another CA is refused by the DS', async () => {
      await rotate({ dsUrl: dsUrl(), caCert: pki!.ca, clientCert: pki!.otherClient.cert, clientKey: pki!.otherClient.key });
      assert.equal(json(await pay()).result.code, '100.390.112');
    });

    it('a route trusting another CA than the DS\'s refuses the DS\'s certificate', async () => {
      await rotate({ dsUrl: dsUrl(), caCert: pki!.otherCa, clientCert: pki!.client.cert, clientKey: pki!.client.key });
      assert.equal(json(await pay()).result.code, '100.390.112');
      assert.ok(t.logs.lines.some((line) => line.includes('"reason":"unreachable"')), 'the TLS handshake failed');
    });

    it('the admin API and the logs name the credentials, never their values', async () => {
      const listed = await t.app.inject({ method: 'GET', url: '/admin/routes', headers: admin });
      assert.equal(listed.statusCode, 200);
      assert.match(listed.body, /clientKey/);
      for (const secret of ['BEGIN', pki!.client.key.slice(40, 80)]) {
        assert.equal(listed.body.includes(secret), false);
        assert.equal(t.logs.text.includes(secret), false);
      }
      assert.equal(t.logs.text.includes(FRICTIONLESS_Y), false);
    });
  });
}

for (const db of testDatabases()) {
  describe(`a challenge through a test system's 3DS server route over mutual TLS (${db.name})`, { skip: pki ? false : 'no openssl to make certificates' }, () => {
    let ds: ThreeDsHost;
    let t: TestApp;
    let merchant: Merchant;
    // The shopper's browser trusts the emulator's CA (its ACS pages ask for no client certificate).
    const browser = directoryTransport({ ca: pki?.ca });
    const browserPost = async (url: string, fields: Record<string, string>) => {
      const answer = await browser.fetch(url, { method: 'POST', headers: FORM_HEADERS, body: new URLSearchParams(fields).toString() });
      return { status: answer.status, text: await answer.text() };
    };

    before(async () => {
      ds = await startThreeDsHost({ port: 0, rreqTimeoutMs: 5_000, tls: { cert: pki!.server.cert, key: pki!.server.key, clientCa: pki!.ca } });
      const port = await freePort();
      t = await startTestApp(await db.open(), { env: { PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' } });
      await t.app.listen({ port, host: '127.0.0.1' });
      merchant = await t.createMerchant('Challenge shop');
      const created = await t.app.inject({
        method: 'POST', url: '/admin/routes', headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS },
        payload: form({ connector: 'emv3ds-server', system: 'test', entity: merchant.entityId, currency: 'EUR', 'credentials[dsUrl]': `${ds.url}/ds/areq`, 'credentials[caCert]': pki!.ca, 'credentials[clientCert]': pki!.client.cert, 'credentials[clientKey]': pki!.client.key }),
      });
      assert.equal(created.statusCode, 201, created.body);
    });
    after(async () => {
      browser.close();
      await t.close();
      await t.storage.close();
      await ds.close();
    });

    it(`the route's DS challenges, the code ${CHALLENGE_CODE} on the ACS authenticates, the RReq's Y reaches the payment`, async () => {
      const started = json(await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': CHALLENGE, shopperResultUrl: RESULT_URL }));
      assert.equal(started.result.code, '000.200.000', JSON.stringify(started));
      const page = await t.app.inject({ method: 'GET', url: new URL(started.redirect.url).pathname });
      const action = /<form method="post" action="([^"]+)">/.exec(page.body)![1]!.replace(/&amp;/g, '&');
      assert.equal(action, `${ds.url}/acs/challenge`);
      const fields = Object.fromEntries([...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]));
      const acs = await browserPost(action, fields);
      assert.equal(acs.status, 200, acs.text);
      const result = await browserPost(`${ds.url}/acs/challenge/submit`, { acsTransID: inputValue(acs.text, 'acsTransID')!, code: CHALLENGE_CODE, action: 'verify', threeDSSessionData: fields['threeDSSessionData']! });
      assert.equal(result.status, 200, result.text);
      const back = await t.app.inject({ method: 'POST', url: NOTIFICATION_PATH, headers: FORM_HEADERS, payload: form({ cres: inputValue(result.text, 'cres')!, threeDSSessionData: inputValue(result.text, 'threeDSSessionData')! }) });
      assert.equal(back.statusCode, 200, back.body);
      const stored = json(await getPayment(t, merchant, started.id));
      assert.match(stored.result.code, SUCCESS_PATTERN);
      assert.deepEqual([stored.threeDSecure.authenticationStatus, stored.threeDSecure.eci], ['Y', '05']);
    });
  });
}
