import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { screenshot } from './support/browser.js';
import { CARD, STORED, useStubSuite, waitFor } from './support/widget-stub-suite.js';
import { openWidgetPage, typeCard } from './support/widget-shopper.js';

/**
 * The widget's payment flows in headless Chromium against a stub of the checkout endpoints (the
 * contract of docs/widget.md): what the frame posts, where the shopper is sent (the action with id
 * and resourcePath, the ACS by POST, the provider by GET), and what stays on the page (field
 * errors, refusals, an expired checkout). Against a real gateway: widget-payments.test.ts.
 */

/** What the page's script can tell of the shopper's browser (the gateway adds Accept and User-Agent). */
const BROWSER_FIELDS = ['customer.browser.javaEnabled', 'customer.browser.language', 'customer.browser.screenColorDepth', 'customer.browser.screenHeight', 'customer.browser.screenWidth', 'customer.browser.timezone'];

function withoutBrowserData(fields: Record<string, string>): { posted: Record<string, string>; browser: Record<string, string> } {
  const entries = Object.entries(fields);
  return {
    posted: Object.fromEntries(entries.filter(([name]) => !name.startsWith('customer.browser.'))),
    browser: Object.fromEntries(entries.filter(([name]) => name.startsWith('customer.browser.'))),
  };
}

describe('the payment widget in a real browser: payment flows (stubbed checkout)', { timeout: 300_000 }, () => {
  const suite = useStubSuite();

  it('pays by card: the frame posts the card, the shopper lands on the action with id and resourcePath', async () => {
    const { checkout, at } = await suite.open('VISA MASTER', {}, { customParameters: { SHOPPER_note: 'gift' } });
    await typeCard(at, CARD);
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    const url = await suite.backAtShop(at);
    assert.equal(url.searchParams.get('order'), '42', "the action's own query survives");
    assert.equal(url.searchParams.get('id'), checkout.id);
    assert.equal(url.searchParams.get('resourcePath'), `/v1/checkouts/${checkout.id}/payment`);
    const { posted, browser } = withoutBrowserData(checkout.payments[0]!);
    assert.deepEqual(Object.keys(browser).sort(), BROWSER_FIELDS, 'the browser data 3-D Secure v2 asks for');
    assert.deepEqual(posted, {
      paymentBrand: 'VISA',
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '12',
      'card.expiryYear': '2030',
      'customParameters[SHOPPER_note]': 'gift',
      shopperResultUrl: `${suite.shop().url}/result?order=42`,
      'card.cvv': '123',
      'card.number': '4200000000000000',
    });
    await at.close();
  });

  it('a refused card number is shown at its field; the shopper corrects it and pays', async () => {
    const { checkout, at } = await suite.open('VISA MASTER');
    await typeCard(at, { ...CARD, number: '4012888888881881' });
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await at.page.locator('.wpwl-group-cardNumber.wpwl-has-error').waitFor();
    assert.equal(await at.page.locator('.wpwl-hint-cardNumberError').innerText(), 'Invalid card number');
    assert.equal(await at.page.locator('.wpwl-form-card .wpwl-button-pay').isEnabled(), true, 'the shopper may try again');
    await at.numberInput().fill('4200000000000000');
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await suite.backAtShop(at);
    assert.equal(checkout.payments.length, 2);
    await at.close();
  });

  it('a declined card also ends at the action (the merchant shows the outcome)', async () => {
    const { at } = await suite.open('VISA');
    await typeCard(at, { ...CARD, number: '4000000000000002' });
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await suite.backAtShop(at);
    await at.close();
  });

  it('3-D Secure: the top window posts the challenge to the ACS', async () => {
    const { at } = await suite.open('VISA');
    await typeCard(at, { ...CARD, number: '4200000000000042' });
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await at.page.getByTestId('stub-page').waitFor();
    assert.equal(await at.page.getByTestId('stub-page').innerText(), '/stub/acs POST');
    assert.equal(JSON.parse(await at.page.getByTestId('fields').innerText())['creq'], 'abc');
    await at.close();
  });

  it('a redirect brand: PAYPAL goes to the provider by GET with its query', async () => {
    const { checkout, at } = await suite.open('VISA PAYPAL');
    await at.page.click('.wpwl-form-virtualAccount-PAYPAL .wpwl-button-pay');
    await at.page.getByTestId('stub-page').waitFor();
    assert.equal(await at.page.getByTestId('stub-page').innerText(), '/stub/provider GET');
    assert.equal(JSON.parse(await at.page.getByTestId('fields').innerText())['ref'], '1');
    assert.equal(checkout.payments[0]?.['paymentBrand'], 'PAYPAL');
    await at.close();
  });

  it('a bank form checks its fields and sends them', async () => {
    const { checkout, at } = await suite.open('DIRECTDEBIT_SEPA');
    await at.page.click('.wpwl-form-directDebit .wpwl-button-pay');
    await at.page.locator('.wpwl-group-iban.wpwl-has-error').waitFor();
    await at.page.fill('input[name="bankAccount.holder"]', 'Jane Jones');
    await at.page.fill('input[name="bankAccount.iban"]', 'DE89 3704 0044 0532 0130 01');
    await at.page.click('.wpwl-form-directDebit .wpwl-button-pay');
    await at.page.locator('.wpwl-group-iban.wpwl-has-error').waitFor();
    await at.page.fill('input[name="bankAccount.iban"]', 'DE89 3704 0044 0532 0130 00');
    await at.page.click('.wpwl-form-directDebit .wpwl-button-pay');
    await suite.backAtShop(at);
    assert.equal(checkout.payments[0]?.['bankAccount.iban'], 'DE89370400440532013000');
    await at.close();
  });

  it('a stored card pays with its registrationId and the CVV from the frame', async () => {
    const { checkout, at } = await suite.open('VISA MASTER', {}, { registrations: [STORED] });
    await at.cvvInput('.wpwl-form-registrations').pressSequentially('123');
    await at.page.click('.wpwl-form-registrations .wpwl-button-pay');
    await suite.backAtShop(at);
    assert.deepEqual(withoutBrowserData(checkout.payments[0]!).posted, { registrationId: STORED.id, paymentBrand: 'VISA', shopperResultUrl: `${suite.shop().url}/result?order=42`, 'card.cvv': '123' });
    await at.close();
  });

  it('Enter in a card frame pays, once however often it is pressed', async () => {
    const { checkout, at } = await suite.open('VISA');
    await typeCard(at, CARD);
    await at.cvvInput().press('Enter');
    await at.cvvInput().press('Enter').catch(() => undefined);
    await suite.backAtShop(at);
    assert.equal(checkout.payments.length, 1);
    await at.close();
  });

  it("a stored AMEX takes a four-digit CVV", async () => {
    const { at } = await suite.open('VISA AMEX', {}, { registrations: [{ ...STORED, brand: 'AMEX', last4Digits: '0005' }] });
    await at.cvvInput('.wpwl-form-registrations').pressSequentially('12345');
    assert.equal(await at.cvvInput('.wpwl-form-registrations').inputValue(), '1234');
    await at.close();
  });

  it('onBeforeSubmitCard returning false keeps the payment back', async () => {
    const { checkout, at } = await suite.open('VISA', {}, { cancelCardSubmit: true });
    await typeCard(at, CARD);
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await waitFor(async () => (await at.page.evaluate(() => (window as unknown as { __beforeSubmit?: number }).__beforeSubmit)) === 1, 'the callback ran');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(checkout.payments.length, 0);
    await at.close();
  });

  it('a custom parameter without SHOPPER_ is refused and shown', async () => {
    const { at } = await suite.open('VISA', {}, { customParameters: { internal: 'x' } });
    await typeCard(at, CARD);
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await at.page.locator('.wpwl-form-card .wpwl-message:not([hidden])').waitFor();
    assert.equal(await at.page.locator('.wpwl-form-card .wpwl-message').innerText(), 'The payment could not be processed. Please try again.');
    await at.close();
  });

  it('an expired checkout shows a message instead of the forms', async () => {
    const checkout = suite.gateway().checkout({ state: 'expired' });
    const at = await openWidgetPage(suite.browser(), suite.shop().page({ checkoutId: checkout.id, brands: 'VISA', options: { locale: 'fr' } }), { waitReady: false });
    await at.page.locator('.wpwl-container .wpwl-message').waitFor();
    assert.match(await at.page.locator('.wpwl-container .wpwl-message').innerText(), /session de paiement a expiré/);
    assert.equal(await at.page.locator('form.wpwl-form').count(), 0);
    await screenshot(at.page, 'widget-expired');
    await at.close();
  });
});
