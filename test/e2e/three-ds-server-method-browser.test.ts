/**
 * The 3DS Method through the gateway's own 3DS server in Chromium (issue 37): the card's range
 * (the 3DS test platform's PRes) names the ACS's threeDSMethodURL, so the payment's redirect leads
 * to the gateway's method page. Its script (a file of the gateway's, under a CSP without inline
 * script) posts threeDSMethodData into a hidden iframe to the ACS, whose page posts it back to the
 * gateway's notification URL; the page sees that and goes on: the AReq says threeDSCompInd Y and
 * the platform's method row answers frictionless, on to shopperResultUrl. Where the ACS's
 * notification never reaches the gateway, the page goes on after the timeout: N, the method row
 * challenges, and the shopper confirms on the ACS's challenge page. Each run is compared with the
 * platform's log (its `Method` entry, the AReq's threeDSCompInd). axe-core checks the method page.
 * Screenshots go to test-artifacts/e2e/three-ds-server-method-*.png. In-process, on PGlite.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, CHALLENGE_CODE, exampleCard } from '../../emulators/three-ds-host/table.js';
import { METHOD_NOTIFICATION_PATH, METHOD_PAGE_PATH } from '../../src/connectors/emv3ds-server/method.js';
import { escapeHtml } from '../../src/connectors/simulator/pages/html.js';
import { testDatabases } from '../support/databases.js';
import { getPayment, postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { form, json, startTestApp, type TestApp } from '../support/test-app.js';
import { BROWSER, setThreeDSecureRequirement } from '../support/three-d-secure.js';
import { screenshot, useBrowser, seriousViolationsInFrames } from './support/browser.js';
import { freePort } from '../support/free-port.js';

const METHOD_CARD = exampleCard(CARD_RANGES.find((r) => r.outcome === 'method')!);
const RESULT_URL = 'https://shop.example.com/result';
const SHOP_PAGE = '<!doctype html><html lang="en"><title>Shop</title><h1>Thank you</h1></html>';
const METHOD_TIMEOUT_MS = 2_000;


describe('the 3DS Method through the 3DS server connector in Chromium', { timeout: 120_000 }, () => {
  const browser = useBrowser();
  let host: ThreeDsHost;
  let t: TestApp;
  let gatewayUrl: string;
  let merchant: Merchant;

  before(async () => {
    host = await startThreeDsHost({ port: 0 });
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    t = await startTestApp(await testDatabases()[0]!.open(), {
      env: { THREE_DS_SERVER_DS_URL: `${host.url}/ds/areq`, THREE_DS_SERVER_PREQ_URL: `${host.url}/ds/preq`, THREE_DS_SERVER_METHOD_TIMEOUT_MS: String(METHOD_TIMEOUT_MS), PUBLIC_URL: gatewayUrl, LOG_LEVEL: 'warn' },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    merchant = await t.createMerchant('Method shop');
    await setThreeDSecureRequirement(t.app, merchant.entityId, 'always');
  });
  after(async () => {
    await t?.close();
    await t?.storage.close();
    await host?.close();
  });

  async function shopperContext(): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
    const context = await browser().newContext({ viewport: { width: 375, height: 800 } });
    await context.route('https://shop.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: SHOP_PAGE }));
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) consoleErrors.push(message.text());
    });
    return { context, page, consoleErrors };
  }

  /** The payment of the method card, and the merchant's page that follows its redirect (a GET to the gateway's method page). */
  async function pay(page: Page): Promise<string> {
    const response = await postPayment(t, merchant, { amount: '49.99', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': METHOD_CARD, shopperResultUrl: RESULT_URL });
    const paid = json(response);
    assert.equal(paid.result.code, '000.200.000', response.body);
    assert.ok(String(paid.redirect.url).startsWith(`${gatewayUrl}${METHOD_PAGE_PATH}/`), paid.redirect.url);
    await page.setContent(`<form method="get" action="${escapeHtml(paid.redirect.url)}"><button>Pay</button></form>`);
    return paid.id;
  }

  const transIdOf = (paymentId: string) => t.storage.query<{ id: string }>(`SELECT resume->>'threeDSServerTransID' AS id FROM shopper_redirects WHERE transaction_id = $1`, [paymentId]).then((r) => r.rows[0]!.id);

  it('the method notified: the ACS logged its Method, the AReq says Y, frictionless, on to shopperResultUrl without a CSP violation', async () => {
    const { context, page, consoleErrors } = await shopperContext();
    const paymentId = await pay(page);
    const notified = page.waitForResponse((r) => r.url() === `${gatewayUrl}${METHOD_NOTIFICATION_PATH}`);
    await Promise.all([page.waitForURL(/^https:\/\/shop\.example\.com\/result\?/, { timeout: METHOD_TIMEOUT_MS * 5 }), page.click('button')]);
    assert.equal((await notified).status(), 200);
    const back = new URL(page.url());
    assert.deepEqual([back.searchParams.get('id'), back.searchParams.get('resourcePath')], [paymentId, `/v1/payments/${paymentId}`]);
    assert.deepEqual(consoleErrors, [], 'no CSP violation on the way');
    const stored = json(await getPayment(t, merchant, paymentId));
    assert.match(stored.result.code, SUCCESS_PATTERN);
    assert.equal(stored.threeDSecure.authenticationStatus, 'Y');
    const entry = host.log.get(await transIdOf(paymentId))!;
    assert.deepEqual(entry.messages.map((m) => m.type), ['Method', 'AReq', 'ARes'], 'the method ran before the AReq, in its transaction');
    assert.equal(entry.messages.find((m) => m.type === 'Method')!.summary['notificationOrigin'], gatewayUrl);
    assert.equal(entry.messages.find((m) => m.type === 'AReq')!.summary['threeDSCompInd'], 'Y');
    assert.equal(entry.dsTransID, stored.threeDSecure.dsTransactionId);
    await context.close();
  });

  it('the notification never comes: after the timeout the AReq says N, the method row challenges, the code on the ACS\'s page, on to shopperResultUrl', async () => {
    const { context, page, consoleErrors } = await shopperContext();
    // The ACS's page runs (and logs its Method) but its post back never reaches the gateway.
    await context.route(`${gatewayUrl}${METHOD_NOTIFICATION_PATH}`, (route) => route.abort());
    const paymentId = await pay(page);
    const started = Date.now();
    await Promise.all([page.waitForURL(`${gatewayUrl}${METHOD_PAGE_PATH}/**`), page.click('button')]);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Secure payment step');
    await screenshot(page, 'three-ds-server-method-page');
    await page.waitForURL(`${host.url}/acs/challenge`, { timeout: METHOD_TIMEOUT_MS * 5 });
    assert.ok(Date.now() - started >= METHOD_TIMEOUT_MS - 100, `went on after the timeout (${Date.now() - started} ms)`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Confirm your payment');
    await page.fill('#code', CHALLENGE_CODE);
    await Promise.all([page.waitForURL(`${host.url}/acs/challenge/submit`), page.getByRole('button', { name: 'Verify' }).click()]);
    await Promise.all([page.waitForURL(/^https:\/\/shop\.example\.com\/result\?/), page.getByRole('button', { name: 'Continue' }).click()]);
    assert.deepEqual(consoleErrors.filter((e) => !e.includes('net::ERR_FAILED')), [], 'no CSP violation (the aborted notification aside)');
    const stored = json(await getPayment(t, merchant, paymentId));
    assert.match(stored.result.code, SUCCESS_PATTERN);
    const entry = host.log.get(await transIdOf(paymentId))!;
    assert.deepEqual(entry.messages.map((m) => m.type).slice(0, 4), ['Method', 'AReq', 'ARes', 'CReq']);
    assert.equal(entry.messages.find((m) => m.type === 'AReq')!.summary['threeDSCompInd'], 'N');
    assert.equal(entry.messages.find((m) => m.type === 'ARes')!.summary['transStatus'], 'C');
    assert.equal(stored.threeDSecure.authenticationStatus, 'Y');
    await context.close();
  });

  it('axe-core: the method page has no serious or critical violation', async () => {
    // bypassCSP only so that axe-core can be injected; the ACS's method URL is held so the page stays.
    const context = await browser().newContext({ viewport: { width: 375, height: 800 }, bypassCSP: true });
    await context.route(`${host.url}/acs/method`, () => undefined);
    const page = await context.newPage();
    await pay(page);
    await Promise.all([page.waitForURL(`${gatewayUrl}${METHOD_PAGE_PATH}/**`), page.click('button')]);
    assert.deepEqual(await seriousViolationsInFrames(page), []);
    await context.close();
  });
});
