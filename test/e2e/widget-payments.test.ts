import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSuccessCode } from '../../src/results/catalogue.js';
import { screenshot, useBrowser } from './support/browser.js';
import { outcomeButton } from './support/shopper.js';
import { createCheckout, merchantCall, paymentNotification } from './support/widget-checkout.js';
import { useWidgetShop, type ShopReturn } from './support/widget-shop.js';
import { openWidgetPage, typeCard, type WidgetPage } from './support/widget-shopper.js';

/**
 * Shoppers pay with the widget on a merchant page (another site, with the documented CSP) against
 * a real gateway process: the merchant's server creates the checkout, the shopper pays in
 * Chromium, comes back to the form's action, and the merchant's status call and the decrypted
 * webhook must say what the shopper did. Screenshots: test-artifacts/e2e/widget-real-*.
 */

const CARD = { number: '4200000000000000', expiry: '0534', cvv: '123', holder: 'Jane Jones' };
const DECLINED = '4000000000000002';
const CHALLENGE = '4200000000000042';
/** What 3-D Secure v2 needs from the merchant besides the card (as in redirects.test.ts). */
const BILLING = { 'billing.street1': 'Hauptstraße 1', 'billing.city': 'Berlin', 'billing.postcode': '10115', 'billing.country': 'DE' };

describe('shoppers pay with the widget at a real gateway', { timeout: 600_000 }, () => {
  const browser = useBrowser();
  const setup = useWidgetShop();

  /** How many returns the shop had when each page opened: each page leads to one more. */
  const returnsAtOpen = new Map<WidgetPage, number>();

  async function openCheckout(checkout: { id: string; integrity: string }, brands: string, options: Record<string, unknown> = {}, contextLocale?: string, customParameters?: Record<string, string>): Promise<WidgetPage> {
    const returnsBefore = setup.shop.returns.length;
    const at = await openWidgetPage(browser(), setup.shop.page({ checkoutId: checkout.id, integrity: checkout.integrity, brands, options, customParameters }), contextLocale ? { locale: contextLocale } : {});
    returnsAtOpen.set(at, returnsBefore);
    return at;
  }

  /** The shopper is back at the action; the merchant's status call was made there. */
  async function backAtShop(at: WidgetPage, checkoutId: string): Promise<ShopReturn> {
    const before = returnsAtOpen.get(at) ?? setup.shop.returns.length - 1;
    await at.page.waitForURL((url) => url.href.startsWith(`${setup.shop.url}/result`), { timeout: 30_000 });
    await at.page.getByTestId('result').waitFor();
    assert.equal(setup.shop.returns.length, before + 1);
    const back = setup.shop.returns.at(-1)!;
    assert.equal(back.query['id'], checkoutId);
    assert.equal(back.query['resourcePath'], `/v1/checkouts/${checkoutId}/payment`);
    assert.equal(back.query['order'], '42', "the action's own query survives");
    return back;
  }

  /** The status call and the webhook agree with each other and with the expected outcome. */
  async function assertAgreement(back: ShopReturn, checkoutId: string, expected: 'success' | RegExp): Promise<Record<string, any>> {
    const status = back.status!;
    const code = String(status.body['result']?.code);
    const paymentId = String(status.body['id']);
    assert.match(paymentId, /^[0-9a-f]{32}$/, `the payment's own id, not the checkout's: ${JSON.stringify(status.body)}`);
    assert.notEqual(paymentId, checkoutId);
    if (expected === 'success') assert.ok(isSuccessCode(code), `a success, got ${code}: ${JSON.stringify(status.body)}`);
    else assert.match(code, expected, JSON.stringify(status.body));
    assert.equal(status.body['amount'], '92.00');
    const notification = await paymentNotification(setup.env, paymentId, code);
    assert.equal(notification.body.type, 'PAYMENT');
    assert.equal(notification.body.payload['amount'], '92.00');
    assert.doesNotMatch(notification.rawBody + JSON.stringify(status.body), /4200000000000000|4000000000000002/, 'no card number');
    return status.body;
  }

  it('a card payment', async () => {
    const checkout = await createCheckout(setup.env);
    const at = await openCheckout(checkout, 'VISA MASTER', {}, undefined, { SHOPPER_note: 'gift wrap' });
    await typeCard(at, CARD);
    await screenshot(at.page, 'widget-real-card');
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    const payment = await assertAgreement(await backAtShop(at, checkout.id), checkout.id, 'success');
    assert.equal(payment['paymentBrand'], 'VISA');
    assert.equal(payment['card']?.['last4Digits'], '0000');
    assert.equal(payment['customParameters']?.['SHOPPER_note'], 'gift wrap', "the page's SHOPPER_ parameter travels with the payment");
    await at.close();
  });

  it("a custom parameter of the page without SHOPPER_ is refused; the shopper stays and is told", async () => {
    const checkout = await createCheckout(setup.env);
    const at = await openCheckout(checkout, 'VISA', {}, undefined, { internalScore: '99' });
    await typeCard(at, CARD);
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await at.page.locator('.wpwl-form-card .wpwl-message:not([hidden])').waitFor({ timeout: 15_000 });
    assert.equal(await at.page.locator('.wpwl-form-card .wpwl-message').innerText(), 'The payment could not be processed. Please try again.');
    const status = await merchantCall(setup.env.gateway.url, setup.env.merchant, 'GET', `/v1/checkouts/${checkout.id}/payment`);
    assert.equal(status.body['result']?.code, '000.200.000', `nothing was paid: ${JSON.stringify(status.body)}`);
    await at.close();
  });

  it('a declined card, then a retry in the same checkout', async () => {
    const checkout = await createCheckout(setup.env);
    const first = await openCheckout(checkout, 'VISA MASTER');
    await typeCard(first, { ...CARD, number: DECLINED });
    await first.page.click('.wpwl-form-card .wpwl-button-pay');
    const declined = await assertAgreement(await backAtShop(first, checkout.id), checkout.id, /^800\.100\.100$/);
    await first.close();
    // The merchant's result page offers the widget again with the same checkout.
    const second = await openCheckout(checkout, 'VISA MASTER');
    await typeCard(second, CARD);
    await second.page.click('.wpwl-form-card .wpwl-button-pay');
    const paid = await assertAgreement(await backAtShop(second, checkout.id), checkout.id, 'success');
    assert.notEqual(paid['id'], declined['id'], 'two payments in one checkout');
    await second.close();
  });

  it('a 3-D Secure challenge', async () => {
    // The browser data comes from the widget (screen, language, time zone) and its request (Accept, User-Agent).
    const checkout = await createCheckout(setup.env, BILLING);
    const at = await openCheckout(checkout, 'VISA');
    await typeCard(at, { ...CARD, number: CHALLENGE });
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await outcomeButton(at.page, 'Y').waitFor({ timeout: 30_000 }).catch(async (error: Error) => {
      await screenshot(at.page, 'widget-real-3ds-failed');
      throw new Error(`${error.message}\nat ${at.page.url()}: ${await at.page.locator('body').innerText()}`);
    });
    assert.equal(new URL(at.page.url()).origin, new URL(setup.env.gateway.url).origin, 'the ACS page is the gateway’s');
    await screenshot(at.page, 'widget-real-3ds');
    await outcomeButton(at.page, 'Y').click();
    const payment = await assertAgreement(await backAtShop(at, checkout.id), checkout.id, 'success');
    assert.equal(payment['threeDSecure']?.['authenticationStatus'], 'Y', JSON.stringify(payment));
    await at.close();
  });

  it("the 3-D Secure card in a checkout without the billing address: the shopper is told at the shop, the status call says why", async () => {
    const checkout = await createCheckout(setup.env);
    const at = await openCheckout(checkout, 'VISA');
    await typeCard(at, { ...CARD, number: CHALLENGE });
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    const back = await backAtShop(at, checkout.id);
    const payment = await assertAgreement(back, checkout.id, /^100\.800\.100$/);
    assert.equal(payment['resultDetails']?.['ExtendedDescription'], '3-D Secure authentication needs billing.street1, billing.city, billing.postcode, billing.country');
    await at.close();
  });

  it('a redirect brand (PAYPAL)', async () => {
    const checkout = await createCheckout(setup.env);
    const at = await openCheckout(checkout, 'VISA PAYPAL');
    await at.page.click('.wpwl-form-virtualAccount-PAYPAL .wpwl-button-pay');
    await outcomeButton(at.page, 'approve').waitFor({ timeout: 30_000 });
    await outcomeButton(at.page, 'approve').click();
    const payment = await assertAgreement(await backAtShop(at, checkout.id), checkout.id, 'success');
    assert.equal(payment['paymentBrand'], 'PAYPAL');
    await at.close();
  });

  it('a stored card', async () => {
    const registration = await merchantCall(setup.env.gateway.url, setup.env.merchant, 'POST', '/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
    assert.equal(registration.status, 200, JSON.stringify(registration.body));
    const checkout = await createCheckout(setup.env, { 'registrations[0].id': registration.body['id'] });
    const at = await openCheckout(checkout, 'VISA MASTER');
    assert.match(await at.page.locator('.wpwl-registration').innerText(), /0000/);
    await at.cvvInput('.wpwl-form-registrations').pressSequentially('123');
    await screenshot(at.page, 'widget-real-stored');
    await at.page.click('.wpwl-form-registrations .wpwl-button-pay');
    await assertAgreement(await backAtShop(at, checkout.id), checkout.id, 'success');
    await at.close();
  });

  it('a registration checkout stores the card and charges nothing', async () => {
    const created = await merchantCall(setup.env.gateway.url, setup.env.merchant, 'POST', '/v1/checkouts', { createRegistration: 'true', integrity: 'true' });
    assert.equal(created.body['result']?.code, '000.200.100', JSON.stringify(created.body));
    const checkout = { id: String(created.body['id']), integrity: String(created.body['integrity']) };
    const at = await openCheckout(checkout, 'VISA MASTER');
    await typeCard(at, CARD);
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await at.page.waitForURL((url) => url.href.startsWith(`${setup.shop.url}/result`), { timeout: 30_000 });
    const back = setup.shop.returns.at(-1)!;
    assert.equal(back.query['id'], checkout.id);
    assert.equal(back.query['resourcePath'], `/v1/checkouts/${checkout.id}/registration`);
    const registration = back.status!.body;
    assert.match(String(registration['id']), /^[0-9a-f]{32}$/, JSON.stringify(registration));
    assert.equal(registration['card']?.['last4Digits'], '0000');
    assert.equal(registration['amount'], undefined, 'nothing was charged');
    await at.close();
  });

  it('the page in German and in Arabic', async () => {
    const german = await createCheckout(setup.env);
    const de = await openCheckout(german, 'VISA MASTER SOFORTUEBERWEISUNG', { locale: 'de' }, 'de-DE');
    assert.equal(await de.page.locator('.wpwl-form-card .wpwl-button-pay').innerText(), 'Jetzt bezahlen');
    await typeCard(de, CARD);
    await screenshot(de.page, 'widget-real-de');
    await de.page.click('.wpwl-form-card .wpwl-button-pay');
    await assertAgreement(await backAtShop(de, german.id), german.id, 'success');
    await de.close();

    const arabic = await createCheckout(setup.env);
    const ar = await openCheckout(arabic, 'VISA MASTER', { locale: 'ar' }, 'ar');
    assert.equal(await ar.page.locator('.wpwl-container').getAttribute('dir'), 'rtl');
    await typeCard(ar, CARD);
    await screenshot(ar.page, 'widget-real-ar');
    await ar.page.click('.wpwl-form-card .wpwl-button-pay');
    await assertAgreement(await backAtShop(ar, arabic.id), arabic.id, 'success');
    await ar.close();
  });

  it('a paid checkout is no longer payable', async () => {
    const checkout = await createCheckout(setup.env);
    const at = await openCheckout(checkout, 'VISA');
    await typeCard(at, CARD);
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await backAtShop(at, checkout.id);
    await at.close();
    const again = await openWidgetPage(browser(), setup.shop.page({ checkoutId: checkout.id, integrity: checkout.integrity, brands: 'VISA' }), { waitReady: false });
    await again.page.locator('.wpwl-container .wpwl-message').waitFor();
    assert.equal(await again.page.locator('form.wpwl-form').count(), 0);
    await again.close();
  });
});
