/**
 * A live challenge through a 3DS server route, end to end in Chromium (issue 37): the live system,
 * an entity that requires 3-D Secure, its 3DS server route to the emulator's DS over mutual TLS
 * (the route's client certificate and CA) and its acquirer route to the acquirer host over TLS.
 * The gateway runs as a live one does, behind a TLS-terminating proxy (TRUST_PROXY_TLS=true,
 * PUBLIC_URL the proxy's https address). The DS answers C; the shopper's browser follows the
 * redirect to the gateway's page, which posts the CReq to the ACS; the shopper types the code, the
 * ACS posts its RReq to the gateway's threeDSServerURL over https (trusting the test CA:
 * resultsCa), and Continue posts the final CRes to the notificationURL, which takes the shopper on
 * to shopperResultUrl. The payment is authorised by the acquirer host with the RReq's data.
 * Certificates are made by openssl at test time; the browser is told to accept the test CA's
 * certificates (ignoreHTTPSErrors). Screenshots: test-artifacts/e2e/three-ds-live-route-*.png.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startAcquirerHost, type AcquirerHost } from '../../emulators/acquirer-host/server.js';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, CHALLENGE_CODE, exampleCard } from '../../emulators/three-ds-host/table.js';
import { ACQUIRER_HOST_CONNECTOR_ID } from '../../src/connectors/default-connectors.js';
import type { Iso8583Connector } from '../../src/connectors/iso8583/connector.js';
import { escapeHtml } from '../../src/connectors/simulator/pages/html.js';
import { selfSignedLocalhost } from '../integration/acquirer-host/tls-fixture.js';
import { testDatabases } from '../support/databases.js';
import { makePki } from '../support/mutual-tls.js';
import { postPayment, SAMPLE_CARD, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';
import { BROWSER } from '../support/three-d-secure.js';
import { startTlsProxy, type TlsProxy } from '../support/tls-proxy.js';
import { screenshot, useBrowser } from './support/browser.js';
import { freePort } from '../support/free-port.js';

const pki = makePki();
const acquirerTls = selfSignedLocalhost();
const CHALLENGE = exampleCard(CARD_RANGES.find((r) => r.outcome === 'challenge')!);
const RESULT_URL = 'https://shop.example.com/result';
const SHOP_PAGE = '<!doctype html><html lang="en"><title>Shop</title><h1>Thank you</h1></html>';
const https = { 'x-forwarded-proto': 'https' };
const admin = { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS, ...https };


describe('a live challenge through a 3DS server route over mutual TLS, in Chromium', { timeout: 120_000, skip: pki && acquirerTls ? false : 'no openssl to make certificates' }, () => {
  const browser = useBrowser();
  let dir: string;
  let ds: ThreeDsHost;
  let acquirer: AcquirerHost;
  let proxy: TlsProxy;
  let t: TestApp;
  let merchant: Merchant;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'three-ds-live-route-'));
    writeFileSync(join(dir, 'acquirer-ca.pem'), acquirerTls!.cert);
    ds = await startThreeDsHost({ port: 0, tls: { cert: pki!.server.cert, key: pki!.server.key, clientCa: pki!.ca }, resultsCa: pki!.ca });
    acquirer = await startAcquirerHost({ tls: acquirerTls!, settlementDir: dir });
    const port = await freePort();
    proxy = await startTlsProxy(pki!.server, port);
    t = await startTestApp(await testDatabases()[0]!.open(), {
      env: { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true', PUBLIC_URL: proxy.url, LOG_LEVEL: 'warn', ACQUIRER_HOST_URL: `tls://localhost:${acquirer.port}`, ACQUIRER_HOST_CA_FILE: join(dir, 'acquirer-ca.pem') },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    merchant = await t.createMerchant('Live challenge shop');
    const steps: { method: 'PUT' | 'POST'; url: string; payload: Record<string, string>; status: number }[] = [
      { method: 'PUT', url: `/admin/entities/${merchant.entityId}/three-d-secure`, payload: { requirement: 'always' }, status: 200 },
      { method: 'POST', url: '/admin/routes', payload: { connector: ACQUIRER_HOST_CONNECTOR_ID, entity: merchant.entityId, 'credentials[terminalId]': 'TERM0001', 'credentials[merchantId]': 'REHEARSAL000001' }, status: 201 },
      {
        method: 'POST', url: '/admin/routes', status: 201,
        payload: { connector: 'emv3ds-server', entity: merchant.entityId, 'credentials[dsUrl]': `${ds.url}/ds/areq`, 'credentials[caCert]': pki!.ca, 'credentials[clientCert]': pki!.client.cert, 'credentials[clientKey]': pki!.client.key, 'credentials[acquirerMerchantId]': 'LIVE-CHALLENGE' },
      },
    ];
    for (const step of steps) {
      const answer = await t.app.inject({ method: step.method, url: step.url, headers: admin, payload: form(step.payload) });
      assert.equal(answer.statusCode, step.status, answer.body);
    }
  });
  after(async () => {
    (t?.app.gateway.payments.connectors.registry.connectorById(ACQUIRER_HOST_CONNECTOR_ID) as Iso8583Connector | undefined)?.close();
    await t?.close();
    await t?.storage.close();
    await proxy?.close();
    await ds?.close();
    await acquirer?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`the route's DS answers C, the code ${CHALLENGE_CODE} on the ACS, the RReq over https, the CRes back: authorised by the acquirer host`, async () => {
    const paid = json(await postPayment(t, merchant, { amount: '74.20', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': CHALLENGE, shopperResultUrl: RESULT_URL }, https));
    assert.equal(paid.result.code, '000.200.000', JSON.stringify(paid));
    const redirect = paid.redirect as { url: string; method: string; parameters: { name: string; value: string }[] };
    assert.ok(redirect.url.startsWith(`${proxy.url}/v1/threeDSecure/challenge/`), redirect.url);
    assert.equal(acquirer.ledger.charged(paid.id), false, 'nothing reaches the acquirer before the challenge ends');

    const context = await browser().newContext({ viewport: { width: 375, height: 800 }, ignoreHTTPSErrors: true });
    await context.route('https://shop.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: SHOP_PAGE }));
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) consoleErrors.push(message.text());
    });
    const inputs = redirect.parameters.map((p) => `<input type="hidden" name="${escapeHtml(p.name)}" value="${escapeHtml(p.value)}">`).join('');
    await page.setContent(`<form method="${redirect.method.toLowerCase()}" action="${escapeHtml(redirect.url)}">${inputs}<button>Pay</button></form>`);
    await Promise.all([page.waitForURL(`${ds.url}/acs/challenge`), page.click('button')]);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Confirm your payment');
    assert.ok((await page.textContent('main'))?.includes('74.20 (currency 978)'), 'the ACS shows the AReq\'s purchase');
    await screenshot(page, 'three-ds-live-route-acs');
    await page.fill('#code', CHALLENGE_CODE);
    await Promise.all([page.waitForURL(`${ds.url}/acs/challenge/submit`), page.getByRole('button', { name: 'Verify' }).click()]);
    assert.match((await page.getByRole('status').textContent()) ?? '', /confirmed/);
    await screenshot(page, 'three-ds-live-route-acs-result');
    await Promise.all([page.waitForURL(/^https:\/\/shop\.example\.com\/result\?/), page.getByRole('button', { name: 'Continue' }).click()]);
    const back = new URL(page.url());
    assert.deepEqual([back.searchParams.get('id'), back.searchParams.get('resourcePath')], [paid.id, `/v1/payments/${paid.id}`]);
    assert.deepEqual(consoleErrors, [], 'no CSP violation on the way');
    await context.close();

    const stored = json(await t.app.inject({ method: 'GET', url: `/v1/payments/${paid.id}?entityId=${merchant.entityId}`, headers: { ...bearer(merchant.accessToken), ...https } }));
    assert.equal(stored.result.code, '000.000.000', JSON.stringify(stored));
    assert.equal(acquirer.ledger.charged(paid.id), true, 'authorised by the acquirer host');
    // The ACS's RReq reached the gateway over https through the proxy, and the gateway's RRes came back.
    const entry = ds.log.entries().find((e) => e.dsTransID === stored.threeDSecure.dsTransactionId)!;
    assert.ok(entry, 'the route\'s DS logged the AReq');
    const rreq = entry.messages.find((m) => m.type === 'RReq')!.summary;
    assert.equal(entry.messages.find((m) => m.type === 'RRes' && m.direction === 'in')?.summary['resultsStatus'], '01');
    assert.deepEqual([stored.threeDSecure.authenticationStatus, stored.threeDSecure.eci, stored.threeDSecure.verificationId, stored.threeDSecure.acsTransactionId], ['Y', rreq['eci'], rreq['authenticationValue'], entry.acsTransID]);
    for (const secret of ['BEGIN', pki!.client.key.slice(40, 80), CHALLENGE]) assert.equal(t.logs.text.includes(secret), false);
  });
});
