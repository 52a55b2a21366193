import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isPendingCode, isSuccessCode, resultCode } from '../../src/results/catalogue.js';
import { screenshot, useBrowser } from './support/browser.js';
import { startGatewayWithWebhook, type GatewayWithWebhook } from './support/gateway.js';
import { SUCCESS_CODE } from './support/merchant-pages.js';
import { MerchantSite, type Order } from './support/merchant-site.js';
import { outcomeButton, shopperChooses, shopperReachesProvider, type BackAtMerchant } from './support/shopper.js';

/**
 * Shoppers in headless Chromium (Debian's, through playwright-core) pay at a small merchant shop
 * against a real gateway process: redirected to the simulated provider or ACS page, they choose an
 * outcome and come back to the shop's shopperResultUrl. What they chose must be what the shop's
 * server-side status call and the decrypted webhook say. Screenshots: test-artifacts/e2e/.
 */

const ORDER = { amount: '92.00', currency: 'EUR', paymentType: 'DB' } as const;
const SOFORT = { ...ORDER, paymentBrand: 'SOFORTUEBERWEISUNG', 'bankAccount.country': 'DE' };
const PAYPAL = { ...ORDER, paymentBrand: 'PAYPAL' };
/** A 3-D Secure v2 challenge card (compatibility.md) with the billing address 3DS v2 needs. */
const CHALLENGE_CARD = {
  ...ORDER,
  paymentBrand: 'VISA',
  'card.number': '4200000000000042',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': '123',
  'card.holder': 'Jane Jones',
  'billing.street1': 'Hauptstraße 1',
  'billing.city': 'Berlin',
  'billing.postcode': '10115',
  'billing.country': 'DE',
};
const THREE_DS_REJECTED = /^(800\.400\.2|100\.390)/;
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

type Expected = { readonly outcome: 'success' } | { readonly outcome: 'rejected'; readonly code?: RegExp };

describe('shoppers complete redirects in a real browser', { timeout: 300_000 }, () => {
  const browser = useBrowser();
  let env: GatewayWithWebhook;
  let shop: MerchantSite;

  before(async () => {
    env = await startGatewayWithWebhook();
    shop = await MerchantSite.start(env.gateway.url, env.merchant);
  });
  after(async () => {
    await shop?.stop();
    await env?.stop();
  });

  /** The first answer: pending with a redirect, as the contract says. */
  function assertPendingWithRedirect(order: Order, method?: string): { paymentId: string; redirect: Record<string, any> } {
    const initial = order.initial;
    assert.ok(initial, 'the merchant created the payment');
    assert.equal(initial.status, 200, JSON.stringify(initial.body));
    assert.equal(initial.body['result']?.code, '000.200.000', JSON.stringify(initial.body));
    assert.equal(initial.body['paymentBrand'], order.parameters['paymentBrand']);
    assert.equal(initial.body['paymentType'], order.parameters['paymentType']);
    const redirect = initial.body['redirect'] as Record<string, any>;
    assert.match(String(redirect?.['url']), /^https?:\/\//, JSON.stringify(initial.body));
    if (method) assert.equal(redirect['method'], method);
    else assert.match(String(redirect['method']), /^(GET|POST)$/);
    return { paymentId: String(initial.body['id']), redirect };
  }

  /** The return, the server-side status and the webhook agree with each other and with the shopper's choice. */
  async function assertAgreement(order: Order, back: BackAtMerchant, expected: Expected): Promise<Record<string, any>> {
    const paymentId = String(order.initial!.body['id']);
    const { shopperReturn } = back;
    assert.equal(shopperReturn.id, paymentId, 'shopperResultUrl carries the payment id');
    assert.equal(shopperReturn.resourcePath, `/v1/payments/${paymentId}`);
    assert.equal(shopperReturn.query['order'], order.id, "the merchant's own query parameter survives");

    const status = shopperReturn.status!;
    const code = String(status.body['result']?.code);
    assert.equal(status.body['id'], paymentId);
    assert.equal(status.status, resultCode(code).httpStatus, `GET answers with the HTTP status of ${code}`);
    if (expected.outcome === 'success') {
      assert.ok(isSuccessCode(code) && SUCCESS_CODE.test(code), `a success code, got ${code}: ${JSON.stringify(status.body)}`);
    } else {
      assert.ok(!isSuccessCode(code) && !isPendingCode(code), `a rejection, got ${code}: ${JSON.stringify(status.body)}`);
      if (expected.code) assert.match(code, expected.code);
    }
    assert.equal(back.shownAsPaid, expected.outcome === 'success', "the shop's result page tells the shopper the outcome");

    const notification = await env.notification(paymentId, 'UPDATED');
    assert.equal(notification.body.type, 'PAYMENT');
    assert.equal(notification.body.payload['id'], paymentId);
    assert.equal((notification.body.payload['result'] as { code: string }).code, code, 'the webhook says what GET says');
    return status.body;
  }

  it('a shopper approves a SOFORTUEBERWEISUNG payment', async () => {
    const order = shop.order(SOFORT);
    const at = await shopperReachesProvider(browser(), shop, order, env.gateway.url, 'sofort-approve');
    assertPendingWithRedirect(order);
    const back = await shopperChooses(at, shop, order, 'approve', 'sofort-approve');
    await assertAgreement(order, back, { outcome: 'success' });
    await at.context.close();
  });

  it('a redirect replayed after the payment is final shows an ended page and changes nothing', async () => {
    const order = shop.order(SOFORT);
    const at = await shopperReachesProvider(browser(), shop, order, env.gateway.url, 'replay');
    const { paymentId } = assertPendingWithRedirect(order);
    const back = await shopperChooses(at, shop, order, 'approve', 'replay');
    const before = await assertAgreement(order, back, { outcome: 'success' });

    await at.page.goto(shop.continueUrl(order));
    await at.page.waitForURL((url) => url.origin === new URL(env.gateway.url).origin);
    await at.page.locator('h1').waitFor();
    await screenshot(at.page, 'replay-ended');
    assert.equal(await at.page.locator('button[name="outcome"]').count(), 0, 'no outcome to choose any more');
    assert.match(await at.page.locator('h1').innerText(), /already finished/i);

    const after = await statusOf(paymentId);
    assert.equal(after.body['result']?.code, before['result']?.code, 'the payment is as the shopper left it');
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // room for a wrong second notification
    const updated = env.notificationsOf(paymentId).filter((n) => n.body.action === 'UPDATED');
    assert.equal(new Set(updated.map((n) => n.notificationId)).size, 1, 'one UPDATED notification');
    await at.context.close();
  });

  it('a shopper declines a PAYPAL payment', async () => {
    const order = shop.order(PAYPAL);
    const at = await shopperReachesProvider(browser(), shop, order, env.gateway.url, 'paypal-decline');
    assertPendingWithRedirect(order);
    const back = await shopperChooses(at, shop, order, 'decline', 'paypal-decline');
    await assertAgreement(order, back, { outcome: 'rejected' });
    await at.context.close();
  });

  it('a shopper completes a 3-D Secure challenge (Y): the payment is authorised with its authentication', async () => {
    const order = shop.order(CHALLENGE_CARD, { collectBrowserData: true });
    const at = await shopperReachesProvider(browser(), shop, order, env.gateway.url, '3ds-challenge-y');
    assertChallengeRedirect(order);
    const back = await shopperChooses(at, shop, order, 'Y', '3ds-challenge-y');
    const payment = await assertAgreement(order, back, { outcome: 'success' });
    const threeDSecure = payment['threeDSecure'] as Record<string, string> | undefined;
    assert.ok(threeDSecure, `GET carries a threeDSecure block: ${JSON.stringify(payment)}`);
    assert.equal(threeDSecure['authenticationStatus'], 'Y');
    assert.match(String(threeDSecure['eci']), /^0[0-7]$/);
    assert.ok(threeDSecure['verificationId'], 'a verificationId (CAVV)');
    assert.doesNotMatch(JSON.stringify(payment), /4200000000000042/, 'no card number in the answer');
    await at.context.close();
  });

  it('a shopper fails a 3-D Secure challenge (N): the payment is rejected with a 3-D Secure code', async () => {
    const order = shop.order(CHALLENGE_CARD, { collectBrowserData: true });
    const at = await shopperReachesProvider(browser(), shop, order, env.gateway.url, '3ds-challenge-n');
    assertChallengeRedirect(order);
    const back = await shopperChooses(at, shop, order, 'N', '3ds-challenge-n');
    await assertAgreement(order, back, { outcome: 'rejected', code: THREE_DS_REJECTED });
    await at.context.close();
  });

  it('the challenge page fits a phone (390×844) and works by touch', async () => {
    const order = shop.order(CHALLENGE_CARD, { collectBrowserData: true });
    const at = await shopperReachesProvider(browser(), shop, order, env.gateway.url, 'phone-3ds-challenge', PHONE);
    assertChallengeRedirect(order);
    const width = PHONE.viewport.width;
    const scrollWidth = await at.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= width, `no sideways scrolling: the page is ${scrollWidth} px wide on a ${width} px screen`);
    for (const value of ['Y', 'N', 'U', 'R', 'cancel']) {
      const box = await outcomeButton(at.page, value).boundingBox();
      assert.ok(box, `the ${value} button is shown`);
      assert.ok(box.x >= 0 && box.x + box.width <= width, `the ${value} button fits across the screen: ${JSON.stringify(box)}`);
      assert.ok(box.height >= 24, `the ${value} button is a tap target of at least 24 px: ${JSON.stringify(box)}`);
    }
    const back = await shopperChooses(at, shop, order, 'Y', 'phone-3ds-challenge', 'tap');
    await assertAgreement(order, back, { outcome: 'success' });
    await at.context.close();
  });

  it("the provider page speaks the shopper's browser language (de-DE)", async () => {
    const english = await shopperReachesProvider(browser(), shop, shop.order(SOFORT), env.gateway.url, 'sofort-en');
    const germanOrder = shop.order(SOFORT);
    const german = await shopperReachesProvider(browser(), shop, germanOrder, env.gateway.url, 'sofort-de', { locale: 'de-DE', timezoneId: 'Europe/Berlin' });
    assert.match(String(await german.page.getAttribute('html', 'lang')), /^de\b/, 'the page is declared German');
    assert.match(String(await english.page.getAttribute('html', 'lang')), /^en\b/, 'and the English one English');
    for (const value of ['approve', 'decline', 'cancel']) {
      const [en, de] = [await outcomeButton(english.page, value).innerText(), await outcomeButton(german.page, value).innerText()];
      assert.notEqual(de.trim(), en.trim(), `the ${value} button is translated (en "${en}", de "${de}")`);
    }
    assert.match(await german.page.locator('body').innerText(), /Abbrechen|Zahlung|Bezahl/i, 'German words on the page');
    const back = await shopperChooses(german, shop, germanOrder, 'cancel', 'sofort-de-cancel');
    await assertAgreement(germanOrder, back, { outcome: 'rejected' });
    await english.context.close();
    await german.context.close();
  });

  /** The merchant's status call, made by the test itself. */
  async function statusOf(paymentId: string): Promise<{ status: number; body: Record<string, any> }> {
    const url = new URL(`/v1/payments/${paymentId}`, env.gateway.url);
    url.searchParams.set('entityId', env.merchant.entityId);
    const response = await fetch(url, { headers: { authorization: `Bearer ${env.merchant.accessToken}` } });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  /** The challenge's redirect: POST to the ACS with creq and threeDSSessionData. */
  function assertChallengeRedirect(order: Order): void {
    const { redirect } = assertPendingWithRedirect(order, 'POST');
    const names = ((redirect['parameters'] ?? []) as { name: string }[]).map((p) => p.name);
    for (const name of ['creq', 'threeDSSessionData']) assert.ok(names.includes(name), `redirect.parameters has ${name}: ${JSON.stringify(redirect)}`);
  }
});
