import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CHALLENGE_CODE } from '../../emulators/three-ds-host/table.js';
import { isSuccessCode } from '../../src/results/catalogue.js';
import { screenshot, useBrowser } from './support/browser.js';
import { startGatewayWithWebhook, type GatewayWithWebhook } from './support/gateway.js';
import { createCheckout, merchantCall } from './support/widget-checkout.js';
import { WidgetShop } from './support/widget-shop.js';
import { openWidgetPage, typeCard } from './support/widget-shopper.js';

/**
 * The EMV 3DS connector's browser challenge in the widget's overlay (issue 37; docs/widget.md,
 * redirectTarget 'overlay'), in Chromium against a real gateway process: the gateway's 3DS server
 * sends its AReq to the 3DS test platform (emulators/three-ds-host), the ACS's challenge page opens
 * in the dialog on the merchant's page (in a frame of the gateway's page there), the shopper types the code and goes on, the ACS's RReq
 * reaches the gateway and the final CRes is posted inside the dialog; the shopper lands on the
 * merchant's result page with the payment authenticated by the RReq's data. A wrong code declines.
 * A card whose ACS has a 3DS Method runs the gateway's method page in the dialog first (its hidden
 * iframe to the ACS nested there), then goes on frictionless.
 */

const CARD = { number: '4000000000001505', expiry: '0534', cvv: '123', holder: 'Jane Jones' };
const METHOD_CARD = '4000000000002008';
const BILLING = { 'billing.street1': 'Hauptstraße 1', 'billing.city': 'Berlin', 'billing.postcode': '10115', 'billing.country': 'DE' };

describe('the 3DS server connector\'s challenge in the widget overlay', { timeout: 300_000 }, () => {
  const browser = useBrowser();
  let host: ThreeDsHost;
  let env: GatewayWithWebhook;
  let shop: WidgetShop;

  before(async () => {
    host = await startThreeDsHost({ port: 0 });
    // With the card ranges, the method row's card runs the 3DS Method first (the last test); the challenge row's has no method URL.
    env = await startGatewayWithWebhook({ THREE_DS_SERVER_DS_URL: `${host.url}/ds/areq`, THREE_DS_SERVER_PREQ_URL: `${host.url}/ds/preq` });
    shop = await WidgetShop.start(env.gateway.url, (resourcePath) => merchantCall(env.gateway.url, env.merchant, 'GET', resourcePath));
  });
  after(async () => {
    await shop?.stop();
    await env?.stop();
    await host?.close();
  });

  async function payWithChallenge(code: string, name: string): Promise<Record<string, any>> {
    const checkout = await createCheckout(env, BILLING);
    const at = await openWidgetPage(browser(), shop.page({ checkoutId: checkout.id, integrity: checkout.integrity, brands: 'VISA', options: { redirectTarget: 'overlay' } }));
    await typeCard(at, CARD);
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await at.page.locator('dialog.wpwl-overlay[open]').waitFor({ timeout: 30_000 });
    // The merchant's page frames the gateway's origin only: the gateway's page in the dialog holds the ACS in a frame of its own.
    const acs = at.page.frameLocator('.wpwl-overlay-frame').frameLocator('iframe[name="acs"]');
    await acs.getByRole('heading', { level: 1, name: 'Confirm your payment' }).waitFor({ timeout: 30_000 });
    assert.ok(at.page.url().startsWith(`${shop.url}/checkout/`), 'the merchant page stays under the dialog');
    await acs.locator('#code').fill(code);
    await acs.getByRole('button', { name: 'Verify' }).click();
    await acs.getByRole('button', { name: 'Continue' }).waitFor({ timeout: 30_000 });
    await screenshot(at.page, `widget-overlay-three-ds-server-${name}`);
    await acs.getByRole('button', { name: 'Continue' }).click();
    await at.page.waitForURL((url) => url.href.startsWith(`${shop.url}/result`), { timeout: 30_000 });
    await at.page.getByTestId('result').waitFor();
    const back = shop.returns.at(-1)!;
    assert.equal(back.query['id'], checkout.id);
    await at.close();
    return back.status!.body;
  }

  it('code right: the ACS page in the dialog, the RReq\'s result decides, the shopper on the result page with the payment authenticated', async () => {
    const payment = await payWithChallenge(CHALLENGE_CODE, 'verified');
    assert.ok(isSuccessCode(String(payment['result']?.code)), JSON.stringify(payment));
    const authentication = payment['threeDSecure'] as Record<string, string>;
    assert.equal(authentication['authenticationStatus'], 'Y');
    const logged = host.log.entries().find((entry) => entry.dsTransID === authentication['dsTransactionId'])!;
    const rreq = logged.messages.find((m) => m.type === 'RReq')!.summary;
    assert.deepEqual([authentication['eci'], authentication['verificationId']], [rreq['eci'], rreq['authenticationValue']]);
  });

  it('code wrong: declined (800.400.200), the shopper on the result page', async () => {
    const payment = await payWithChallenge('0000', 'wrong-code');
    assert.equal(payment['result']?.code, '800.400.200', JSON.stringify(payment));
  });

  it('a card whose ACS has a 3DS Method: the gateway\'s method page in the dialog, the ACS notified, Y, frictionless, the shopper on the result page', async () => {
    const checkout = await createCheckout(env, BILLING);
    const at = await openWidgetPage(browser(), shop.page({ checkoutId: checkout.id, integrity: checkout.integrity, brands: 'VISA', options: { redirectTarget: 'overlay' } }));
    const methodPage = at.page.waitForResponse((r) => r.url().includes('/v1/threeDSecure/method/') && r.request().method() === 'GET');
    const notified = at.page.waitForResponse((r) => r.url().endsWith('/v1/threeDSecure/method/notification'));
    await typeCard(at, { ...CARD, number: METHOD_CARD });
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    const page = await methodPage;
    // The overlay frames the gateway's method page: its CSP names the result page's origin, and no X-Frame-Options denies it.
    const headers = page.headers();
    assert.match(headers['content-security-policy'] ?? '', new RegExp(`frame-ancestors ${shop.url.replace(/[.:/]/g, '\\$&')}`));
    assert.equal(headers['x-frame-options'], undefined);
    assert.equal((await notified).status(), 200);
    await at.page.waitForURL((url) => url.href.startsWith(`${shop.url}/result`), { timeout: 30_000 });
    await at.page.getByTestId('result').waitFor();
    const back = shop.returns.at(-1)!;
    assert.equal(back.query['id'], checkout.id);
    const payment = back.status!.body as Record<string, any>;
    assert.ok(isSuccessCode(String(payment['result']?.code)), JSON.stringify(payment));
    const authentication = payment['threeDSecure'] as Record<string, string>;
    assert.equal(authentication['authenticationStatus'], 'Y');
    const logged = host.log.entries().find((entry) => entry.dsTransID === authentication['dsTransactionId'])!;
    assert.deepEqual(logged.messages.map((m) => m.type), ['Method', 'AReq', 'ARes']);
    assert.equal(logged.messages.find((m) => m.type === 'AReq')!.summary['threeDSCompInd'], 'Y');
    await at.close();
  });
});
