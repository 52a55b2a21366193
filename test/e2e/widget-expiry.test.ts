import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { screenshot, useBrowser } from './support/browser.js';
import { startGatewayWithWebhook, type GatewayWithWebhook } from './support/gateway.js';
import { createCheckout, merchantCall } from './support/widget-checkout.js';
import { WidgetShop } from './support/widget-shop.js';
import { openWidgetPage, typeCard } from './support/widget-shopper.js';

/**
 * A checkout's 30 minutes, shortened to 6 seconds (CHECKOUT_LIFETIME_MINUTES) on a real gateway
 * process of its own: a page opened in time cannot pay after it, a page opened later shows the
 * message instead of the forms, and the merchant's status call refuses the id as OPPWA does.
 */

const CARD = { number: '4200000000000000', expiry: '0534', cvv: '123', holder: 'Jane Jones' };
describe('an expired checkout in the widget (a gateway whose checkouts live 6 seconds)', { timeout: 180_000 }, () => {
  const browser = useBrowser();
  let env: GatewayWithWebhook;
  let shop: WidgetShop;
  before(async () => {
    env = await startGatewayWithWebhook({ CHECKOUT_LIFETIME_MINUTES: '0.1', CHECKOUT_CALLBACK_AFTER_MINUTES: '0.09' });
    shop = await WidgetShop.start(env.gateway.url);
  });
  after(async () => {
    await shop?.stop();
    await env?.stop();
  });

  it('a page opened in time cannot pay once the checkout expired; one opened later shows the message', async () => {
    const checkout = await createCheckout(env);
    const url = shop.page({ checkoutId: checkout.id, integrity: checkout.integrity, brands: 'VISA', options: { locale: 'de' } });
    const early = await openWidgetPage(browser(), url);
    await typeCard(early, CARD);
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    await early.page.click('.wpwl-form-card .wpwl-button-pay');
    await early.page.locator('.wpwl-form-card .wpwl-message:not([hidden])').waitFor();
    assert.match(await early.page.locator('.wpwl-form-card .wpwl-message').innerText(), /Zahlungssitzung ist abgelaufen/);
    await screenshot(early.page, 'widget-real-expired-pay');
    await early.close();

    const late = await openWidgetPage(browser(), url, { waitReady: false });
    await late.page.locator('.wpwl-container .wpwl-message').waitFor();
    assert.equal(await late.page.locator('form.wpwl-form').count(), 0);
    const status = await merchantCall(env.gateway.url, env.merchant, 'GET', `/v1/checkouts/${checkout.id}/payment`);
    assert.equal(status.status, 400);
    assert.equal(status.body['result']?.code, '200.300.404', 'the status call refuses it as OPPWA does');
    assert.equal(env.receiver.received.filter((n) => n.body.type === 'PAYMENT').length, 0, 'no payment, no notification');
    await late.close();
  });
});
