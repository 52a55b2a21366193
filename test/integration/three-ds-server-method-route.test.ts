/**
 * The 3DS Method on the live system through a 3DS server route (docs/three-d-secure.md, "The 3DS
 * Method"), on both databases: without THREE_DS_SERVER_DS_URL, the route's directory (the 3DS
 * test platform; its `preqUrl` credential gives the card ranges) names the method URL for the
 * method row's card, so the live payment goes to the gateway's method page first; the ACS's
 * notification, then the page's continue: the AReq goes to the route's directory with
 * threeDSCompInd Y, frictionless, and the acquirer route (the acquirer host over TLS) authorises it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startAcquirerHost, type AcquirerHost } from '../../emulators/acquirer-host/server.js';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, exampleCard } from '../../emulators/three-ds-host/table.js';
import { METHOD_NOTIFICATION_PATH, METHOD_PAGE_PATH } from '../../src/connectors/emv3ds-server/method.js';
import type { Iso8583Connector } from '../../src/connectors/iso8583/connector.js';
import { ACQUIRER_HOST_CONNECTOR_ID } from '../../src/connectors/default-connectors.js';
import { testDatabases } from '../support/databases.js';
import { postPayment, SAMPLE_CARD, type Merchant } from '../support/payments.js';
import { inputValue, postForm } from '../support/three-ds-host.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';
import { BROWSER, setThreeDSecureRequirement } from '../support/three-d-secure.js';
import { selfSignedLocalhost } from './acquirer-host/tls-fixture.js';

const https = { 'x-forwarded-proto': 'https' };
const admin = { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS, ...https };
const acquirerTls = selfSignedLocalhost();
const METHOD_CARD = exampleCard(CARD_RANGES.find((r) => r.outcome === 'method')!);
const RESULT_URL = 'https://shop.example.com/result';

for (const db of testDatabases()) {
  describe(`the 3DS Method of a live payment through a 3DS server route (${db.name})`, { skip: acquirerTls ? false : 'no openssl to make certificates' }, () => {
    let dir: string;
    let ds: ThreeDsHost;
    let acquirer: AcquirerHost;
    let t: TestApp;
    let merchant: Merchant;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'three-ds-method-route-'));
      ds = await startThreeDsHost({ port: 0 });
      acquirer = await startAcquirerHost({ tls: acquirerTls!, settlementDir: dir });
      writeFileSync(join(dir, 'ca.pem'), acquirerTls!.cert);
      t = await startTestApp(await db.open(), {
        env: { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true', LOG_LEVEL: 'warn', ACQUIRER_HOST_URL: `tls://localhost:${acquirer.port}`, ACQUIRER_HOST_CA_FILE: join(dir, 'ca.pem') },
      });
      merchant = await t.createMerchant('Live method shop');
      await setThreeDSecureRequirement(t.app, merchant.entityId, 'always', https);
      const acquirerRoute = await t.app.inject({ method: 'POST', url: '/admin/routes', headers: admin, payload: form({ connector: ACQUIRER_HOST_CONNECTOR_ID, entity: merchant.entityId, 'credentials[terminalId]': 'TERM0001', 'credentials[merchantId]': 'REHEARSAL000001' }) });
      assert.equal(acquirerRoute.statusCode, 201, acquirerRoute.body);
      const threeDsRoute = await t.app.inject({ method: 'POST', url: '/admin/routes', headers: admin, payload: form({ connector: 'emv3ds-server', entity: merchant.entityId, 'credentials[dsUrl]': `${ds.url}/ds/areq`, 'credentials[preqUrl]': `${ds.url}/ds/preq` }) });
      assert.equal(threeDsRoute.statusCode, 201, threeDsRoute.body);
    });
    after(async () => {
      (t.app.gateway.payments.connectors.registry.connectorById(ACQUIRER_HOST_CONNECTOR_ID) as Iso8583Connector).close();
      await t.close();
      await t.storage.close();
      await ds.close();
      await acquirer.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('the method page first; notified, the route\'s directory gets threeDSCompInd Y, frictionless, and the acquirer charges', async () => {
      const started = json(await postPayment(t, merchant, { amount: '25.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': METHOD_CARD, shopperResultUrl: RESULT_URL }, https));
      assert.equal(started.result.code, '000.200.000', JSON.stringify(started));
      const path = new URL(started.redirect.url).pathname;
      assert.ok(path.startsWith(`${METHOD_PAGE_PATH}/`), started.redirect.url);
      const page = await t.app.inject({ method: 'GET', url: path, headers: https });
      assert.equal(page.statusCode, 200, page.body);
      const methodData = inputValue(page.body, 'threeDSMethodData')!;
      const transId = JSON.parse(Buffer.from(methodData, 'base64url').toString('utf8')).threeDSServerTransID as string;
      assert.equal(acquirer.ledger.charged(started.id), false, 'nothing charged before the method');
      const acsPage = await postForm(`${ds.url}/acs/method`, { threeDSMethodData: methodData });
      const notified = await t.app.inject({ method: 'POST', url: METHOD_NOTIFICATION_PATH, headers: { ...FORM_HEADERS, ...https }, payload: form({ threeDSMethodData: inputValue(acsPage.text, 'threeDSMethodData')! }) });
      assert.equal(notified.statusCode, 200, notified.body);
      const done = await t.app.inject({ method: 'POST', url: `${path}/continue`, headers: { ...FORM_HEADERS, ...https }, payload: '' });
      assert.equal(done.statusCode, 200, done.body);
      const stored = json(await t.app.inject({ method: 'GET', url: `/v1/payments/${started.id}?entityId=${merchant.entityId}`, headers: { ...bearer(merchant.accessToken), ...https } }));
      assert.equal(stored.result.code, '000.000.000', JSON.stringify(stored));
      assert.deepEqual([stored.threeDSecure.authenticationStatus, stored.threeDSecure.eci], ['Y', '05']);
      assert.equal(acquirer.ledger.charged(started.id), true);
      const entry = ds.log.get(transId)!;
      assert.deepEqual(entry.messages.map((m) => m.type), ['Method', 'AReq', 'ARes']);
      assert.equal(entry.messages.find((m) => m.type === 'AReq')!.summary['threeDSCompInd'], 'Y');
      assert.equal(t.logs.text.includes(METHOD_CARD), false);
    });
  });
}
