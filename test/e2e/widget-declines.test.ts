import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { isSuccessCode } from '../../src/results/catalogue.js';
import { DECLINE_TEXTS } from '../../widget/src/i18n/decline-texts.js';
import { docImagesDir, screenshot, seriousViolationsInFrames, useBrowser } from './support/browser.js';
import { createCheckout, merchantCall } from './support/widget-checkout.js';
import { useWidgetShop } from './support/widget-shop.js';
import { openWidgetPage, typeCard, type WidgetPage } from './support/widget-shopper.js';
import { useStubSuite } from './support/widget-stub-suite.js';

/**
 * Errors that help (docs/widget.md, "When a payment is declined" and "What the shopper gets"),
 * in Chromium against a real gateway process with the simulator (docs/simulator.md: card
 * 4000000000009995 has insufficient funds, card.cvv 999 is a wrong CVV, 4000000000000002 the
 * bank's no, IBAN DE93100000000000000003 a closed account; a stored card declines as its number
 * does). In the tabs and accordion layouts a decline is shown in the widget with what to do,
 * and the shopper pays again in the same checkout; the forms layout still goes to the result
 * page. Fields are checked when left and again while typing once in error. Screenshots:
 * widget-decline-* and widget-field-errors-* in docImagesDir() (docs/images with UPDATE_DOC_IMAGES=1), and test-artifacts/e2e/widget-decline-*.
 */

const VIEWPORTS = [
  { label: 'desktop', width: 1280, height: 900 },
  { label: '375', width: 375, height: 900 },
] as const;
const BRANDS = 'VISA MASTER AMEX PAYPAL DIRECTDEBIT_SEPA';
const CARD = { number: '4200000000000000', expiry: '0534', cvv: '123', holder: 'Jane Jones' };
const NO_FUNDS = '4000000000009995';
const BANK_SAYS_NO = '4000000000000002';
const WRONG_CVV = '999';
const EN = DECLINE_TEXTS['en']!;

async function docImage(page: Page, name: string): Promise<void> {
  await page.locator('.wpwl-container').screenshot({ path: join(docImagesDir(), `${name}.png`) });
}

const declinedMessage = (at: WidgetPage) => at.page.locator('.wpwl-message-declined:not([hidden])');
const hint = (at: WidgetPage, name: string) => at.page.locator(`.wpwl-form-card .wpwl-hint-${name}Error`);
const visibleHint = async (at: WidgetPage, name: string) => ((await hint(at, name).isVisible()) ? hint(at, name).innerText() : '');
const focusedClass = (at: WidgetPage) => at.page.evaluate(() => document.activeElement?.className ?? '');
const plain = (text: string) => text.replace(/\u00a0|\u202f/g, ' ');

describe('errors that help: declines shown in the widget, a retry, checks on leaving a field (real gateway, simulator)', { timeout: 900_000 }, () => {
  const browser = useBrowser();
  const setup = useWidgetShop();

  async function open(options: Record<string, unknown>, viewport?: { width: number; height: number }): Promise<{ checkout: { id: string; integrity: string }; at: WidgetPage }> {
    const checkout = await createCheckout(setup.env);
    const at = await openWidgetPage(browser(), setup.shop.page({ checkoutId: checkout.id, integrity: checkout.integrity, brands: BRANDS, options }), { viewport });
    return { checkout, at };
  }
  const statusOf = async (checkoutId: string) => String((await merchantCall(setup.env.gateway.url, setup.env.merchant, 'GET', `/v1/checkouts/${checkoutId}/payment`)).body['result']?.code);
  async function paysAndLands(at: WidgetPage, checkoutId: string): Promise<void> {
    await at.page.click('.wpwl-button-pay');
    await at.page.waitForURL((url) => url.href.startsWith(`${setup.shop.url}/result`), { timeout: 30_000 });
    assert.equal(new URL(at.page.url()).searchParams.get('id'), checkoutId);
    assert.ok(isSuccessCode(await statusOf(checkoutId)), 'the retry is paid, in the same checkout');
  }

  for (const viewport of VIEWPORTS) {
    it(`tabs: insufficient funds shown in the widget, then another card pays in the same checkout (${viewport.label})`, async () => {
      const { checkout, at } = await open({ layout: 'tabs' }, viewport);
      const page = at.page;
      await typeCard(at, { ...CARD, number: NO_FUNDS });
      await page.click('.wpwl-button-pay');
      await declinedMessage(at).waitFor({ timeout: 30_000 });
      assert.equal(await declinedMessage(at).innerText(), EN.declineInsufficientFunds);
      assert.equal(await declinedMessage(at).getAttribute('role'), 'alert');
      assert.equal(await declinedMessage(at).getAttribute('data-reason'), 'insufficientFunds');
      assert.ok(page.url().includes('/checkout/'), 'still on the checkout page');
      assert.equal(await statusOf(checkout.id), '800.100.203', 'the gateway declined it (insufficient funds)');
      assert.match(await focusedClass(at), /wpwl-message/, 'the focus is on the message');
      assert.equal(await at.cvvInput().inputValue(), '', 'the CVV is emptied');
      assert.equal(await at.numberInput().inputValue(), '4000 0000 0000 9995', 'the number is kept');
      assert.equal(await page.locator('.wpwl-control-expiry').inputValue(), '05 / 34', 'the expiry is kept');
      assert.equal(await page.locator('.wpwl-control-cardHolder').inputValue(), CARD.holder, 'the holder is kept');
      assert.equal(await page.locator('.wpwl-button-pay').isEnabled(), true);
      assert.equal(plain(await page.locator('.wpwl-button-pay').innerText()), 'Pay €92.00');
      assert.deepEqual(await seriousViolationsInFrames(page), [], 'axe: declined');
      await docImage(page, `widget-decline-tabs-${viewport.label}`);
      await screenshot(page, `widget-decline-tabs-${viewport.label}`);

      await at.numberInput().fill(CARD.number);
      await at.cvvInput().pressSequentially(CARD.cvv);
      await paysAndLands(at, checkout.id);
      assert.deepEqual(at.errors, []);
      await at.close();
    });
  }

  it('tabs: a wrong CVV marks the CVV and puts the focus there; the error goes once a CVV is typed', async () => {
    const { checkout, at } = await open({ layout: 'tabs' });
    await typeCard(at, { ...CARD, cvv: WRONG_CVV });
    await at.page.click('.wpwl-button-pay');
    await declinedMessage(at).waitFor({ timeout: 30_000 });
    assert.equal(await declinedMessage(at).innerText(), EN.declineCvv);
    assert.equal(await statusOf(checkout.id), '800.100.153');
    assert.equal(await visibleHint(at, 'cvv'), 'Invalid CVV');
    assert.match(String(await at.page.locator('.wpwl-form-card .wpwl-group-cvv').getAttribute('class')), /wpwl-has-error/);
    await at.page.frameLocator('.wpwl-form-card iframe.wpwl-control-cvv').locator('input[aria-invalid="true"]').waitFor({ timeout: 5_000 });
    // The focus is in the CVV frame (sent there by a message: a moment later).
    await at.page.waitForFunction(() => document.activeElement?.classList.contains('wpwl-control-cvv'), undefined, { timeout: 5_000 });
    assert.equal(await at.cvvInput().inputValue(), '');
    await screenshot(at.page, 'widget-decline-cvv');
    assert.deepEqual(await seriousViolationsInFrames(at.page), [], 'axe: declined, CVV marked');
    await at.cvvInput().pressSequentially('12');
    assert.equal(await visibleHint(at, 'cvv'), 'Invalid CVV', 'still wrong while incomplete');
    await at.cvvInput().pressSequentially('3');
    await hint(at, 'cvv').waitFor({ state: 'hidden' });
    await paysAndLands(at, checkout.id);
    await at.close();
  });

  it("accordion: the bank's no says so, with what to do", async () => {
    const { checkout, at } = await open({ layout: 'accordion' });
    await typeCard(at, { ...CARD, number: BANK_SAYS_NO });
    await at.page.click('.wpwl-button-pay');
    await declinedMessage(at).waitFor({ timeout: 30_000 });
    assert.equal(await declinedMessage(at).innerText(), EN.declineBank);
    assert.equal(await statusOf(checkout.id), '800.100.100');
    await screenshot(at.page, 'widget-decline-accordion-bank');
    // Another method: the message goes with the method it was about.
    await at.page.locator('.wpwl-method-header').nth(1).click();
    assert.equal(await declinedMessage(at).count(), 0);
    await at.close();
  });

  it('tabs: a stored card without funds says so in the widget, with what to do; the other stored card pays in the same checkout', async () => {
    const store = async (number: string): Promise<string> => {
      const stored = await merchantCall(setup.env.gateway.url, setup.env.merchant, 'POST', '/v1/registrations', { paymentBrand: 'VISA', 'card.number': number, 'card.holder': CARD.holder, 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      assert.equal(stored.status, 200, JSON.stringify(stored.body));
      return String(stored.body['id']);
    };
    const [declining, approving] = [await store(NO_FUNDS), await store(CARD.number)];
    const checkout = await createCheckout(setup.env, { 'registrations[0].id': declining, 'registrations[1].id': approving });
    const at = await openWidgetPage(browser(), setup.shop.page({ checkoutId: checkout.id, integrity: checkout.integrity, brands: BRANDS, options: { layout: 'tabs' } }));
    const page = at.page;
    assert.equal(await page.locator('[role="tab"][aria-selected="true"] .wpwl-method-label').innerText(), 'Your stored cards');
    assert.deepEqual(await page.locator('.wpwl-registration-cardNumber').allInnerTexts(), ['•••• 9995', '•••• 0000']);
    assert.equal(await page.locator(`.wpwl-control-registration[value="${declining}"]`).isChecked(), true, 'the first stored card is chosen');
    await at.cvvInput('.wpwl-form-registrations').pressSequentially(CARD.cvv);
    await page.click('.wpwl-button-pay');
    await declinedMessage(at).waitFor({ timeout: 30_000 });
    assert.equal(await declinedMessage(at).innerText(), EN.declineInsufficientFunds, 'the reason and what to do');
    assert.equal(await declinedMessage(at).getAttribute('role'), 'alert');
    assert.equal(await declinedMessage(at).getAttribute('data-reason'), 'insufficientFunds');
    assert.equal(await statusOf(checkout.id), '800.100.203', 'the gateway declined it (insufficient funds)');
    assert.ok(page.url().includes('/checkout/'), 'still on the checkout page');
    assert.match(await focusedClass(at), /wpwl-message/, 'the focus is on the message');
    assert.equal(await at.cvvInput('.wpwl-form-registrations').inputValue(), '', 'the CVV is emptied');
    assert.equal(await page.locator('.wpwl-button-pay').isEnabled(), true);
    assert.deepEqual(await seriousViolationsInFrames(page), [], 'axe: a stored card declined');
    await screenshot(page, 'widget-decline-tabs-stored-card');
    await page.locator(`.wpwl-control-registration[value="${approving}"]`).check();
    await at.cvvInput('.wpwl-form-registrations').pressSequentially(CARD.cvv);
    await paysAndLands(at, checkout.id);
    const paid = await merchantCall(setup.env.gateway.url, setup.env.merchant, 'GET', `/v1/checkouts/${checkout.id}/payment`);
    assert.equal(paid.body['card']?.last4Digits, '0000', JSON.stringify(paid.body));
    assert.deepEqual(at.errors, []);
    await at.close();
  });

  it('tabs: a SEPA direct debit from a closed account says so, marks the IBAN; another IBAN pays in the same checkout', async () => {
    const { checkout, at } = await open({ layout: 'tabs' });
    const page = at.page;
    await page.getByRole('tab', { name: 'SEPA' }).click();
    const form = page.locator('.wpwl-form:visible');
    const holder = form.locator('[name="bankAccount.holder"]');
    if ((await holder.count()) > 0) await holder.fill(CARD.holder);
    const iban = form.locator('[name="bankAccount.iban"]');
    // docs/simulator.md: DE93100000000000000003 is a closed account (800.100.202, AC04).
    await iban.fill('DE93 1000 0000 0000 0000 03');
    await page.click('.wpwl-button-pay');
    await declinedMessage(at).waitFor({ timeout: 30_000 });
    assert.equal(await declinedMessage(at).innerText(), EN.declineAccount, 'the reason and what to do');
    assert.equal(await declinedMessage(at).getAttribute('role'), 'alert');
    assert.equal(await declinedMessage(at).getAttribute('data-reason'), 'account');
    assert.equal(await statusOf(checkout.id), '800.100.202', 'the gateway declined it (account closed)');
    assert.ok(page.url().includes('/checkout/'), 'still on the checkout page');
    assert.match(String(await form.locator('.wpwl-group-iban').getAttribute('class')), /wpwl-has-error/, 'the IBAN is marked');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'bankAccount.iban', 'the focus is on the IBAN');
    assert.equal(await page.locator('[role="tab"][aria-selected="true"] .wpwl-method-label').innerText(), 'SEPA', 'the shopper stays on SEPA');
    assert.equal(await page.locator('.wpwl-button-pay').isEnabled(), true);
    assert.deepEqual(await seriousViolationsInFrames(page), [], 'axe: SEPA declined');
    await screenshot(page, 'widget-decline-tabs-sepa');
    await iban.fill('DE23 1000 0000 1234 5678 90');
    await form.locator('.wpwl-group-iban.wpwl-has-error').waitFor({ state: 'detached', timeout: 5_000 });
    await paysAndLands(at, checkout.id);
    const paid = await merchantCall(setup.env.gateway.url, setup.env.merchant, 'GET', `/v1/checkouts/${checkout.id}/payment`);
    assert.equal(paid.body['paymentBrand'], 'DIRECTDEBIT_SEPA', JSON.stringify(paid.body));
    assert.deepEqual(at.errors, []);
    await at.close();
  });

  it('forms (OPPWA): a decline still goes to the result page, unchanged', async () => {
    const { checkout, at } = await open({});
    await typeCard(at, { ...CARD, number: NO_FUNDS });
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await at.page.waitForURL((url) => url.href.startsWith(`${setup.shop.url}/result`), { timeout: 30_000 });
    assert.equal(await at.page.getByTestId('result-code').innerText(), '800.100.203', "the merchant's result page tells the shopper");
    assert.equal(new URL(at.page.url()).searchParams.get('id'), checkout.id);
    await at.close();
  });

  for (const [locale, layout] of [['de', 'tabs'], ['ar', 'accordion'], ['ja', 'tabs']] as const) {
    it(`${layout} in ${locale}: the decline in the shopper's language`, async () => {
      const { at } = await open({ layout, locale }, VIEWPORTS[1]);
      await typeCard(at, { ...CARD, number: NO_FUNDS });
      await at.page.click('.wpwl-button-pay');
      await declinedMessage(at).waitFor({ timeout: 30_000 });
      assert.equal(await declinedMessage(at).innerText(), DECLINE_TEXTS[locale]!.declineInsufficientFunds);
      assert.equal(await at.page.locator('.wpwl-container').getAttribute('dir'), locale === 'ar' ? 'rtl' : 'ltr');
      assert.deepEqual(await seriousViolationsInFrames(at.page), [], `axe: declined in ${locale}`);
      await docImage(at.page, `widget-decline-${layout}-${locale}-375`);
      await at.close();
    });
  }
});

describe('fields checked when the shopper leaves them and again while typing (stub checkout)', { timeout: 600_000 }, () => {
  const suite = useStubSuite();
  const open = async (options: Record<string, unknown>, viewport?: { width: number; height: number }) => suite.open(BRANDS, options, { viewport });
  const shop = { get url() { return suite.shop().url; } };

  // Field errors: checked when a field is left, and again while typing once in error.
  for (const viewport of VIEWPORTS) {
    it(`tabs: nothing said while typing, an error when a field is left, gone once it is right (${viewport.label})`, async () => {
      const { at } = await open({ layout: 'tabs' }, viewport);
      const page = at.page;
      const expiry = page.locator('.wpwl-form-card .wpwl-control-expiry');
      const holder = page.locator('.wpwl-form-card .wpwl-control-cardHolder');

      // Leaving empty fields says nothing: they are required only at payment.
      await at.numberInput().focus();
      await expiry.focus();
      await holder.focus();
      await at.numberInput().focus();
      assert.deepEqual(await Promise.all(['cardNumber', 'expiry', 'cvv', 'cardHolder'].map((name) => visibleHint(at, name))), ['', '', '', '']);

      await at.numberInput().pressSequentially('4200 0000');
      assert.equal(await visibleHint(at, 'cardNumber'), '', 'no error at the first keystrokes');
      await expiry.focus();
      await hint(at, 'cardNumber').waitFor();
      assert.equal(await visibleHint(at, 'cardNumber'), 'Invalid card number', 'an error once the field is left');
      await expiry.pressSequentially('1');
      assert.equal(await visibleHint(at, 'expiry'), '');
      await at.cvvInput().pressSequentially('1');
      await waitForHint(at, 'expiry', 'Invalid expiry date');
      await holder.pressSequentially('J');
      await waitForHint(at, 'cvv', 'Invalid CVV');
      await expiry.focus();
      assert.equal(await visibleHint(at, 'cardHolder'), 'Invalid card holder');
      assert.equal(await at.numberInput().getAttribute('aria-invalid'), 'true');
      assert.equal(await expiry.getAttribute('aria-invalid'), 'true');
      await screenshot(page, `widget-field-errors-${viewport.label}`);
      await docImage(page, `widget-field-errors-${viewport.label}`);
      assert.deepEqual(await seriousViolationsInFrames(page), [], 'axe: errors');

      // Once in error, each field is checked as it is typed: wrong until right, then the error goes.
      await at.numberInput().press('End');
      await at.numberInput().pressSequentially('0000 000');
      assert.equal(await visibleHint(at, 'cardNumber'), 'Invalid card number', 'still incomplete');
      await at.numberInput().pressSequentially('0');
      await hint(at, 'cardNumber').waitFor({ state: 'hidden' });
      await expiry.press('End');
      await expiry.pressSequentially('2');
      assert.equal(await visibleHint(at, 'expiry'), 'Invalid expiry date');
      await expiry.pressSequentially('34');
      assert.equal(await visibleHint(at, 'expiry'), '', 'gone at the last digit');
      await at.cvvInput().pressSequentially('23');
      await hint(at, 'cvv').waitFor({ state: 'hidden' });
      await holder.press('End');
      await holder.pressSequentially('ane');
      assert.equal(await visibleHint(at, 'cardHolder'), '');
      assert.equal(await expiry.getAttribute('aria-invalid'), null);
      assert.equal(await at.page.locator('.wpwl-group.wpwl-has-error').count(), 0, 'no field in error left');
      await page.click('.wpwl-button-pay');
      await page.waitForURL((url) => url.href.startsWith(`${shop.url}/result`), { timeout: 30_000 });
      await at.close();
    });
  }

  it('an expired card is said when the expiry is left; the bank form checks its IBAN the same way', async () => {
    const { at } = await open({ layout: 'accordion', locale: 'de' });
    const expiry = at.page.locator('.wpwl-form-card .wpwl-control-expiry');
    await expiry.pressSequentially('0120');
    assert.equal(await visibleHint(at, 'expiry'), '');
    await at.page.locator('.wpwl-form-card .wpwl-control-cardHolder').focus();
    assert.equal(await visibleHint(at, 'expiry'), 'Diese Karte ist abgelaufen');
    await at.page.locator('.wpwl-method-header').nth(2).click();
    const iban = at.page.locator('input[name="bankAccount.iban"]');
    await iban.pressSequentially('DE89 3704 0044 0532 0130 01');
    assert.equal(await at.page.locator('.wpwl-hint-ibanError').isVisible(), false, 'nothing while typing');
    await at.page.locator('input[name="bankAccount.bic"]').focus();
    assert.equal(await at.page.locator('.wpwl-hint-ibanError').innerText(), 'Ungültige IBAN');
    await iban.fill('DE89 3704 0044 0532 0130 0');
    assert.equal(await at.page.locator('.wpwl-hint-ibanError').innerText(), 'Ungültige IBAN', 'still wrong while typing');
    await iban.pressSequentially('0');
    await at.page.locator('.wpwl-hint-ibanError').waitFor({ state: 'hidden', timeout: 5_000 });
    await at.close();
  });
});

async function waitForHint(at: WidgetPage, name: string, text: string): Promise<void> {
  await hint(at, name).waitFor();
  assert.equal(await hint(at, name).innerText(), text);
}
