/**
 * The browser challenge through the gateway's own 3DS server in Chromium (issue 37): a merchant
 * page follows the payment's redirect to the gateway's page, which posts creq and
 * threeDSSessionData on to the 3DS test platform's ACS,
 * the shopper types the code and presses Verify (the ACS sends its RReq to the listening
 * gateway), then Continue, which posts the final CRes to the gateway's notificationURL; the
 * gateway's page takes the shopper on to shopperResultUrl by itself. The payment has succeeded
 * with the RReq's eci and authenticationValue. axe-core checks the gateway's pages (the way back,
 * and the page a second post of the same CRes gets), not the ACS's. Screenshots go to
 * test-artifacts/e2e/three-ds-server-*.png. Gateway and platform run in-process, on PGlite.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CHALLENGE_CODE } from '../../emulators/three-ds-host/table.js';
import { escapeHtml } from '../../src/connectors/simulator/pages/html.js';
import { testDatabases } from '../support/databases.js';
import { getPayment, postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { json, startTestApp, type TestApp } from '../support/test-app.js';
import { BROWSER } from '../support/three-d-secure.js';
import { screenshot, useBrowser, seriousViolationsInFrames } from './support/browser.js';
import { freePort } from '../support/free-port.js';

const CHALLENGE_CARD = '4000000000001505';
const RESULT_URL = 'https://shop.example.com/result';


describe('the browser challenge through the 3DS server connector in Chromium', { timeout: 120_000 }, () => {
  const browser = useBrowser();
  let host: ThreeDsHost;
  let t: TestApp;
  let gatewayUrl: string;
  let merchant: Merchant;

  before(async () => {
    host = await startThreeDsHost({ port: 0 });
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    t = await startTestApp(await testDatabases()[0]!.open(), { env: { THREE_DS_SERVER_DS_URL: `${host.url}/ds/areq`, PUBLIC_URL: gatewayUrl, LOG_LEVEL: 'warn' } });
    await t.app.listen({ port, host: '127.0.0.1' });
    merchant = await t.createMerchant('Browser shop');
  });
  after(async () => {
    await t?.close();
    await t?.storage.close();
    await host?.close();
  });

  const SHOP_PAGE = '<!doctype html><html lang="en"><title>Shop</title><h1>Thank you</h1></html>';

  /** The merchant's page posts the payment's redirect to the ACS; the shopper types the code and presses Verify (or Cancel). */
  async function challenge(page: Page, answer: { readonly code: string } | 'cancel' = { code: CHALLENGE_CODE }): Promise<{ paymentId: string; cres: string; session: string }> {
    const response = await postPayment(t, merchant, { amount: '49.99', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': CHALLENGE_CARD, shopperResultUrl: RESULT_URL });
    const paid = json(response);
    assert.equal(paid.result.code, '000.200.000', response.body);
    const redirect = paid.redirect as { url: string; method: string; parameters: { name: string; value: string }[] };
    // The gateway's own page, which posts the CReq on to the ACS: the merchant's page deals with the gateway's origin only.
    assert.ok(redirect.url.startsWith(`${gatewayUrl}/v1/threeDSecure/challenge/`), redirect.url);
    const inputs = redirect.parameters.map((p) => `<input type="hidden" name="${escapeHtml(p.name)}" value="${escapeHtml(p.value)}">`).join('');
    await page.setContent(`<form method="${redirect.method.toLowerCase()}" action="${escapeHtml(redirect.url)}">${inputs}<button>Pay</button></form>`);
    await Promise.all([page.waitForURL(`${host.url}/acs/challenge`), page.click('button')]);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Confirm your payment');
    assert.ok((await page.textContent('main'))?.includes('49.99 (currency 978)'), 'the ACS shows the AReq\'s purchase');
    if (answer === 'cancel') {
      await Promise.all([page.waitForURL(`${host.url}/acs/challenge/submit`), page.getByRole('button', { name: 'Cancel' }).click()]);
      assert.match((await page.getByRole('status').textContent()) ?? '', /cancelled/);
    } else {
      await page.fill('#code', answer.code);
      await Promise.all([page.waitForURL(`${host.url}/acs/challenge/submit`), page.getByRole('button', { name: 'Verify' }).click()]);
      assert.match((await page.getByRole('status').textContent()) ?? '', answer.code === CHALLENGE_CODE ? /is confirmed/ : /not confirmed/);
    }
    return { paymentId: paid.id, cres: await page.locator('input[name="cres"]').inputValue(), session: await page.locator('input[name="threeDSSessionData"]').inputValue() };
  }

  /** The platform's log entry of a payment's challenge: the ACS sent its RReq, and the gateway's RRes came back. */
  function loggedChallenge(dsTransactionId: string) {
    const entry = host.log.entries().find((e) => e.dsTransID === dsTransactionId)!;
    assert.equal(entry.messages.find((m) => m.type === 'RRes' && m.direction === 'in')?.summary['resultsStatus'], '01');
    return { entry, rreq: entry.messages.find((m) => m.type === 'RReq')!.summary };
  }

  it('code 1234: ACS page, RReq, CRes to the gateway, on to shopperResultUrl by itself; the payment succeeded with the RReq\'s data', async () => {
    const context = await browser().newContext({ viewport: { width: 375, height: 800 } });
    await context.route('https://shop.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: SHOP_PAGE }));
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) consoleErrors.push(message.text());
    });
    const { paymentId } = await challenge(page);
    await screenshot(page, 'three-ds-server-acs-result');
    await Promise.all([page.waitForURL(/^https:\/\/shop\.example\.com\/result\?/), page.getByRole('button', { name: 'Continue' }).click()]);
    const back = new URL(page.url());
    assert.equal(back.searchParams.get('id'), paymentId);
    assert.equal(back.searchParams.get('resourcePath'), `/v1/payments/${paymentId}`);
    assert.deepEqual(consoleErrors, [], 'no CSP violation on the way back');

    const stored = json(await getPayment(t, merchant, paymentId));
    assert.match(stored.result.code, SUCCESS_PATTERN);
    const { entry, rreq } = loggedChallenge(stored.threeDSecure.dsTransactionId);
    assert.deepEqual([stored.threeDSecure.authenticationStatus, stored.threeDSecure.eci, stored.threeDSecure.verificationId, stored.threeDSecure.acsTransactionId], ['Y', rreq['eci'], rreq['authenticationValue'], entry.acsTransID]);
    await context.close();
  });

  for (const [name, answer, code, status] of [['a wrong code', { code: '0000' }, '800.400.200', 'N'], ['Cancel', 'cancel', '100.390.124', 'N']] as const) {
    it(`${name}: the RReq's N declines the payment (${code}), and the shopper still comes back to shopperResultUrl`, async () => {
      const context = await browser().newContext();
      await context.route('https://shop.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: SHOP_PAGE }));
      const page = await context.newPage();
      const { paymentId } = await challenge(page, answer);
      await Promise.all([page.waitForURL(/^https:\/\/shop\.example\.com\/result\?/), page.getByRole('button', { name: 'Continue' }).click()]);
      assert.equal(new URL(page.url()).searchParams.get('id'), paymentId);
      const stored = json(await getPayment(t, merchant, paymentId));
      assert.equal(stored.result.code, code);
      assert.equal(loggedChallenge(stored.threeDSecure.dsTransactionId).rreq['transStatus'], status);
      await context.close();
    });
  }

  it('axe-core: the gateway\'s way back (its link, the refresh left out) and its used-link page have no serious or critical violation', async () => {
    // bypassCSP only so that axe-core can be injected into the gateway's pages.
    const context = await browser().newContext({ viewport: { width: 375, height: 800 }, bypassCSP: true });
    await context.route('https://shop.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: SHOP_PAGE }));
    // The page goes on by itself at once; to look at it, its refresh is taken out, and its link must lead on.
    await context.route(`${gatewayUrl}/v1/threeDSecure/notification`, async (route) => {
      const answer = await route.fetch();
      const body = (await answer.text()).replace(/<meta http-equiv="refresh"[^>]*>/, '');
      await route.fulfill({ response: answer, body });
    });
    const page = await context.newPage();
    const { paymentId, cres, session } = await challenge(page);
    await Promise.all([page.waitForURL(`${gatewayUrl}/v1/threeDSecure/notification`), page.getByRole('button', { name: 'Continue' }).click()]);
    assert.equal(await page.title(), 'Back to https://shop.example.com');
    await screenshot(page, 'three-ds-server-back');
    assert.deepEqual(await seriousViolationsInFrames(page), []);
    await Promise.all([page.waitForURL(/^https:\/\/shop\.example\.com\/result\?/), page.getByRole('link').click()]);
    assert.match(json(await getPayment(t, merchant, paymentId)).result.code, SUCCESS_PATTERN);

    // The browser's back button and Continue again: the gateway's "already used" page.
    await page.setContent(`<form method="post" action="${escapeHtml(`${gatewayUrl}/v1/threeDSecure/notification`)}"><input type="hidden" name="cres" value="${escapeHtml(cres)}"><input type="hidden" name="threeDSSessionData" value="${escapeHtml(session)}"><button>Again</button></form>`);
    const [again] = await Promise.all([page.waitForResponse(`${gatewayUrl}/v1/threeDSecure/notification`), page.click('button')]);
    assert.equal(again.status(), 410);
    await page.waitForLoadState();
    await screenshot(page, 'three-ds-server-used');
    assert.deepEqual(await seriousViolationsInFrames(page), []);
    assert.match(json(await getPayment(t, merchant, paymentId)).result.code, SUCCESS_PATTERN, 'nothing changed');
    await context.close();
  });
});
