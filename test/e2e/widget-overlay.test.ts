import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminApiCaller } from '../../src/cli/admin-api-call.js';
import { isSuccessCode } from '../../src/results/catalogue.js';
import { screenshot, useBrowser } from './support/browser.js';
import { outcomeButton } from './support/shopper.js';
import { createCheckout, merchantCall } from './support/widget-checkout.js';
import { useWidgetShop } from './support/widget-shop.js';
import { openWidgetPage, typeCard, type WidgetPage } from './support/widget-shopper.js';

/**
 * wpwlOptions.redirectTarget = 'overlay' (docs/widget.md) against a real gateway in Chromium: the
 * ACS and the provider in a modal dialog on the merchant's page, the shopper back on the result
 * page when done; Escape cancels and the shopper pays another way; a page that may not frame the
 * gateway's pages gets a popup. And active payment method selection (docs/risk.md): a risk
 * profile that hides a brand from the form and refuses it when posted anyway.
 */

const CARD = { number: '4200000000000000', expiry: '0534', cvv: '123', holder: 'Jane Jones' };
const CHALLENGE = '4200000000000042';
const BILLING = { 'billing.street1': 'Hauptstraße 1', 'billing.city': 'Berlin', 'billing.postcode': '10115', 'billing.country': 'DE' };
const OVERLAY = { redirectTarget: 'overlay' };

describe('the widget overlay and the brands the risk engine offers', { timeout: 600_000 }, () => {
  const browser = useBrowser();
  const setup = useWidgetShop();

  const open = (checkout: { id: string; integrity: string }, brands: string, extra: { action?: string } = {}): Promise<WidgetPage> =>
    openWidgetPage(browser(), setup.shop.page({ checkoutId: checkout.id, integrity: checkout.integrity, brands, options: OVERLAY, ...extra }));

  async function backAtShop(at: WidgetPage, checkoutId: string): Promise<Record<string, any>> {
    await at.page.waitForURL((url) => url.href.startsWith(`${setup.shop.url}/result`), { timeout: 30_000 });
    await at.page.getByTestId('result').waitFor();
    const back = setup.shop.returns.at(-1)!;
    assert.equal(back.query['id'], checkoutId);
    assert.equal(back.query['resourcePath'], `/v1/checkouts/${checkoutId}/payment`);
    return back.status!.body;
  }

  it('3-D Secure: the challenge in an overlay; the shopper lands on the result page', async () => {
    const checkout = await createCheckout(setup.env, BILLING);
    const at = await open(checkout, 'VISA');
    await typeCard(at, { ...CARD, number: CHALLENGE });
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    const dialog = at.page.locator('dialog.wpwl-overlay[open]');
    await dialog.waitFor({ timeout: 30_000 });
    const labelledBy = await dialog.getAttribute('aria-labelledby');
    assert.equal(await at.page.locator(`#${labelledBy}`).innerText(), 'Secure payment step');
    assert.equal(await dialog.locator('iframe').getAttribute('title'), 'Secure payment step');
    const acs = at.page.frameLocator('.wpwl-overlay-frame');
    await outcomeButton(acs as never, 'Y').waitFor({ timeout: 30_000 });
    assert.ok(at.page.url().startsWith(`${setup.shop.url}/checkout/`), 'the merchant page stays');
    // The ACS page lets only the checkout's result origin frame it.
    const frame = at.page.frames().find((f) => f.name().startsWith('wpwl-overlay'))!;
    const policy = (await fetch(frame.url())).headers.get('content-security-policy') ?? '';
    assert.match(policy, new RegExp(`frame-ancestors ${setup.shop.url.replace(/[.:/]/g, '\\$&')};`));
    // docs/images/widget-overlay.png is a copy of this one.
    await screenshot(at.page, 'widget-overlay-3ds');
    await outcomeButton(acs as never, 'Y').click();
    const payment = await backAtShop(at, checkout.id);
    assert.ok(isSuccessCode(String(payment['result']?.code)), JSON.stringify(payment));
    assert.equal(payment['threeDSecure']?.['authenticationStatus'], 'Y');
    await at.close();
  });

  it('a provider (PAYPAL) in an overlay; approved, the shopper lands on the result page', async () => {
    const checkout = await createCheckout(setup.env);
    const at = await open(checkout, 'VISA PAYPAL');
    await at.page.click('.wpwl-form-virtualAccount-PAYPAL .wpwl-button-pay');
    const provider = at.page.frameLocator('.wpwl-overlay-frame');
    await outcomeButton(provider as never, 'approve').click({ timeout: 30_000 });
    const payment = await backAtShop(at, checkout.id);
    assert.equal(payment['paymentBrand'], 'PAYPAL');
    assert.ok(isSuccessCode(String(payment['result']?.code)), JSON.stringify(payment));
    await at.close();
  });

  it('Escape closes the overlay; the shopper pays by card in the same checkout', async () => {
    const checkout = await createCheckout(setup.env);
    const at = await open(checkout, 'VISA PAYPAL');
    await at.page.click('.wpwl-form-virtualAccount-PAYPAL .wpwl-button-pay');
    await outcomeButton(at.page.frameLocator('.wpwl-overlay-frame') as never, 'approve').waitFor({ timeout: 30_000 });
    const focusInDialog = () => at.page.evaluate(() => document.querySelector('dialog.wpwl-overlay')!.contains(document.activeElement));
    assert.equal(await at.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Close', 'the close button has the focus');
    for (let i = 0; i < 8; i += 1) {
      await at.page.keyboard.press('Tab');
      assert.equal(await focusInDialog(), true, `Tab ${i + 1} stays in the dialog`);
    }
    await at.page.locator('.wpwl-button-close').focus();
    await at.page.keyboard.press('Escape');
    await at.page.locator('dialog.wpwl-overlay').waitFor({ state: 'detached' });
    assert.equal(await at.page.locator('.wpwl-form-virtualAccount-PAYPAL .wpwl-button-pay').isEnabled(), true);
    await typeCard(at, CARD);
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    const payment = await backAtShop(at, checkout.id);
    assert.equal(payment['paymentBrand'], 'VISA');
    assert.ok(isSuccessCode(String(payment['result']?.code)), JSON.stringify(payment));
    await at.close();
  });

  it('fallback: a page whose result page is on another origin may not frame the ACS; a popup shows it', async () => {
    const checkout = await createCheckout(setup.env, BILLING);
    const action = `${setup.shop.url.replace('localhost', '127.0.0.1')}/result?order=42`;
    const at = await open(checkout, 'VISA', { action });
    await typeCard(at, { ...CARD, number: CHALLENGE });
    const [popup] = await Promise.all([at.page.context().waitForEvent('page'), at.page.click('.wpwl-form-card .wpwl-button-pay')]);
    await outcomeButton(popup, 'Y').click({ timeout: 30_000 });
    await popup.waitForURL((url) => url.href.startsWith(`${action}&id=`), { timeout: 30_000 });
    assert.equal(new URL(popup.url()).searchParams.get('id'), checkout.id);
    assert.equal(await at.page.locator('dialog.wpwl-overlay').count(), 0, 'no overlay');
    const status = await merchantCall(setup.env.gateway.url, setup.env.merchant, 'GET', `/v1/checkouts/${checkout.id}/payment`);
    assert.ok(isSuccessCode(String(status.body['result']?.code)), JSON.stringify(status.body));
    await at.close();
  });

  it('a risk profile hides a brand: not offered, and refused when posted anyway', async () => {
    const rules = { brandOffer: [{ profiles: ['review'], hide: ['PAYPAL'] }] };
    await adminApiCaller(setup.env.gateway.url, setup.env.adminToken)('PUT', `/admin/entities/${setup.env.merchant.entityId}/risk/rules`, { rules: JSON.stringify(rules), by: 'e2e' });
    const shopper = { 'customer.givenName': 'Jane', 'customer.surname': 'Jones' };
    const trusted = await createCheckout(setup.env, { ...shopper, 'customer.email': 'jane@example.com' });
    const ok = await open(trusted, 'VISA PAYPAL');
    assert.equal(await ok.page.locator('.wpwl-form-virtualAccount-PAYPAL').count(), 1, 'an ordinary shopper is offered PAYPAL');
    await ok.close();
    // review@risk.test: the test system's data for a review (docs/risk.md).
    const suspect = await createCheckout(setup.env, { ...shopper, 'customer.email': 'review@risk.test' });
    const at = await open(suspect, 'VISA PAYPAL');
    assert.equal(await at.page.locator('.wpwl-form-card').count(), 1);
    assert.equal(await at.page.locator('.wpwl-form-virtualAccount-PAYPAL').count(), 0, 'PAYPAL is not offered');
    await at.close();
    const posted = await fetch(`${setup.env.gateway.url}/v1/checkouts/${suspect.id}/payment`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ paymentBrand: 'PAYPAL', shopperResultUrl: setup.shop.resultUrl() }).toString(),
    });
    const body = (await posted.json()) as Record<string, any>;
    assert.equal(posted.status, 400);
    assert.equal(body['result']?.code, '100.400.319', JSON.stringify(body));
    assert.equal(body['result']?.parameterErrors?.[0]?.name, 'paymentBrand');
  });
});
