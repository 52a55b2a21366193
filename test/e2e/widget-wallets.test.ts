import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { isSuccessCode } from '../../src/results/catalogue.js';
import { DECLINE_TEXTS } from '../../widget/src/i18n/decline-texts.js';
import { docImagesDir, screenshot, seriousViolationsInFrames, useBrowser } from './support/browser.js';
import { createCheckout, merchantCall } from './support/widget-checkout.js';
import { useWidgetShop } from './support/widget-shop.js';
import { openWidgetPage, type WidgetPage } from './support/widget-shopper.js';

/**
 * The wallets on the test system (docs/widget.md, "Wallets on the test system") against a real
 * gateway in Chromium: a wallet button per WALLETA/B/C above the other methods, the simulated
 * sheet in the widget's dialog, a payment that lands on the result page (forms and tabs), a
 * decline, a cancel, axe-core with the sheet open, and no card number on the merchant's page.
 * Screenshots: widget-wallet-* in docImagesDir() (docs/images with UPDATE_DOC_IMAGES=1) and test-artifacts/e2e/.
 */

const BRANDS = 'WALLETA WALLETB WALLETC VISA MASTER PAYPAL';
const MOBILE = { width: 375, height: 812 };
const SHEET_NUMBERS = ['4200000000000000', '5454545454545454', '4000000000000002'];

async function docShot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(docImagesDir(), `${name}.png`) });
  await screenshot(page, name);
}

describe('wallets on the test system', { timeout: 600_000 }, () => {
  const browser = useBrowser();
  const setup = useWidgetShop();

  /** `action`: the form's action (a result page of another origin …); `initScript`: runs in the shopper's pages first. */
  async function open(options: Record<string, unknown> = {}, viewport?: { width: number; height: number }, page: { action?: string; initScript?: string } = {}): Promise<{ at: WidgetPage; checkoutId: string }> {
    const checkout = await createCheckout(setup.env);
    const at = await openWidgetPage(browser(), setup.shop.page({ checkoutId: checkout.id, integrity: checkout.integrity, brands: BRANDS, options, ...(page.action ? { action: page.action } : {}) }), { viewport, initScript: page.initScript });
    return { at, checkoutId: checkout.id };
  }

  /** Opens the wallet's sheet; answers the sheet's frame. */
  async function openSheet(at: WidgetPage, wallet: string) {
    await at.page.getByRole('button', { name: `Pay with ${wallet}` }).click();
    const dialog = at.page.locator('dialog.wpwl-overlay[open]');
    await dialog.waitFor({ timeout: 15_000 });
    const sheet = at.page.frameLocator('.wpwl-overlay-frame');
    await sheet.locator('button[value="pay"]').waitFor({ timeout: 15_000 });
    return { dialog, sheet };
  }

  async function backAtShop(at: WidgetPage, checkoutId: string, resultUrl = `${setup.shop.url}/result`): Promise<Record<string, any>> {
    await at.page.waitForURL((url) => url.href.startsWith(resultUrl), { timeout: 30_000 });
    await at.page.getByTestId('result').waitFor();
    const back = setup.shop.returns.at(-1)!;
    assert.equal(back.query['id'], checkoutId);
    assert.equal(back.query['resourcePath'], `/v1/checkouts/${checkoutId}/payment`);
    return back.status!.body;
  }

  async function pageHoldsNoCard(at: WidgetPage): Promise<void> {
    const seen = await at.page.evaluate(() => `${document.documentElement.outerHTML}\n${((window as unknown as { __seen: string[] }).__seen ?? []).join('\n')}`);
    for (const number of SHEET_NUMBERS) assert.ok(!seen.includes(number), 'the merchant page saw a card number');
  }

  it('forms layout: the wallet buttons above the forms; walletA pays with the sheet\'s approving card; the shopper lands on the result page', async () => {
    const { at, checkoutId } = await open();
    const container = at.page.locator('.wpwl-container');
    assert.equal(await container.locator(':scope > :first-child').getAttribute('class'), 'wpwl-wallets');
    assert.equal(await at.page.locator('.wpwl-wallets').getAttribute('role'), 'group');
    for (const brand of ['WALLETA', 'WALLETB', 'WALLETC']) {
      const form = at.page.locator(`form.wpwl-form-virtualAccount-${brand}`);
      assert.equal(await form.count(), 1, brand);
      assert.equal(await form.locator('.wpwl-hint-redirect').count(), 0, `${brand} is no redirect form`);
      assert.equal(await form.locator('svg.wpwl-wallet-mark[aria-hidden="true"]').count(), 1);
    }
    assert.equal(await at.page.locator('.wpwl-form-card').count(), 1, 'the card form is still there');
    await docShot(at.page, 'widget-wallets-forms');
    const { dialog, sheet } = await openSheet(at, 'walletA');
    assert.equal(await at.page.locator(`#${await dialog.getAttribute('aria-labelledby')}`).innerText(), 'walletA, simulated');
    assert.match(await sheet.locator('.test-banner').innerText(), /Test system/);
    assert.match(await sheet.locator('h1').innerText(), /Pay with walletA/);
    assert.match(await sheet.locator('.details').innerText(), /€92\.00/);
    assert.deepEqual(await at.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Close');
    assert.deepEqual(await seriousViolationsInFrames(at.page), []);
    await docShot(at.page, 'widget-wallet-sheet');
    await sheet.locator('button[value="pay"]').click();
    const payment = await backAtShop(at, checkoutId);
    assert.equal(payment['paymentBrand'], 'WALLETA');
    assert.ok(isSuccessCode(String(payment['result']?.code)), JSON.stringify(payment));
    assert.deepEqual(at.errors, []);
    await at.close();
  });

  it('tabs layout at 375 px: a row of wallet buttons above the tabs; walletB pays by keyboard with the MASTER card', async () => {
    const { at, checkoutId } = await open({ layout: 'tabs' }, MOBILE);
    const order = await at.page.evaluate(() => Array.from(document.querySelector('.wpwl-container')!.children, (child) => child.className));
    assert.deepEqual(order.slice(0, 2), ['wpwl-wallets', 'wpwl-methods wpwl-methods-tabs']);
    await docShot(at.page, 'widget-wallets-tabs-375');
    const { sheet } = await openSheet(at, 'walletB');
    assert.deepEqual(await seriousViolationsInFrames(at.page), []);
    // The sheet by keyboard: the arrow to the second card, Tab to Pay, Enter pays.
    await sheet.locator('input[value="visa-0000"]').focus();
    await at.page.keyboard.press('ArrowDown');
    assert.equal(await sheet.locator('input[value="master-5454"]').isChecked(), true);
    await docShot(at.page, 'widget-wallet-sheet-375');
    await at.page.keyboard.press('Tab');
    await at.page.keyboard.press('Enter');
    const payment = await backAtShop(at, checkoutId);
    assert.equal(payment['paymentBrand'], 'WALLETB');
    assert.ok(isSuccessCode(String(payment['result']?.code)), JSON.stringify(payment));
    await at.close();
  });

  it('the declining card: in the accordion its reason shows beside the wallet buttons and another card pays; in forms the result page says declined', async () => {
    const { at, checkoutId } = await open({ layout: 'accordion' });
    let { sheet } = await openSheet(at, 'walletC');
    await sheet.locator('input[value="visa-0002"]').check();
    await pageHoldsNoCard(at);
    await sheet.locator('button[value="pay"]').click();
    // 800.100.100, the issuer's no: the widget's decline texts (docs/widget.md, "When a payment is declined").
    await at.page.locator('.wpwl-message[role="alert"]').filter({ hasText: DECLINE_TEXTS['en']!.declineBank }).waitFor({ timeout: 15_000 });
    ({ sheet } = await openSheet(at, 'walletC'));
    await sheet.locator('input[value="visa-0000"]').check();
    await sheet.locator('button[value="pay"]').click();
    const payment = await backAtShop(at, checkoutId);
    assert.equal(payment['paymentBrand'], 'WALLETC');
    assert.ok(isSuccessCode(String(payment['result']?.code)), JSON.stringify(payment));
    await at.close();

    const forms = await open();
    ({ sheet } = await openSheet(forms.at, 'walletC'));
    await sheet.locator('input[value="visa-0002"]').check();
    await sheet.locator('button[value="pay"]').click();
    const declined = await backAtShop(forms.at, forms.checkoutId);
    assert.equal(declined['paymentBrand'], 'WALLETC');
    assert.equal(declined['result']?.code, '800.100.100');
    await forms.at.close();
  });

  it('Cancel in the sheet, then Escape: the dialog goes, the wallet button works again and has the focus; nothing is paid', async () => {
    const { at, checkoutId } = await open();
    const { sheet } = await openSheet(at, 'walletA');
    await sheet.locator('button[value="cancel"]').click();
    await at.page.locator('dialog.wpwl-overlay').waitFor({ state: 'detached', timeout: 15_000 });
    const button = at.page.getByRole('button', { name: 'Pay with walletA' });
    assert.equal(await button.isEnabled(), true);
    assert.equal(await at.page.evaluate(() => document.activeElement?.classList.contains('wpwl-button-wallet-WALLETA')), true, 'the focus is back on the button');
    await openSheet(at, 'walletA');
    await at.page.keyboard.press('Escape');
    await at.page.locator('dialog.wpwl-overlay').waitFor({ state: 'detached', timeout: 15_000 });
    assert.equal(await button.isEnabled(), true);
    await pageHoldsNoCard(at);
    const status = await merchantCall(setup.env.gateway.url, setup.env.merchant, 'GET', `/v1/checkouts/${checkoutId}/payment`);
    assert.notEqual(status.body['paymentBrand'], 'WALLETA', JSON.stringify(status.body));
    assert.deepEqual(at.errors, []);
    await at.close();
  });

  it('German: the buttons and the sheet in the shopper\'s language', async () => {
    const { at } = await open({ locale: 'de' });
    await at.page.getByRole('button', { name: 'Mit walletA bezahlen' }).waitFor();
    await at.page.getByRole('button', { name: 'Mit walletA bezahlen' }).click();
    const sheet = at.page.frameLocator('.wpwl-overlay-frame');
    await sheet.locator('h1', { hasText: 'Mit walletA bezahlen' }).waitFor({ timeout: 15_000 });
    assert.match(await sheet.locator('button[value="pay"]').innerText(), /92,00\s€ zahlen/);
    await at.close();
  });

  // The merchant page on localhost, the result page on 127.0.0.1: another origin, which the sheet may not be framed by.
  const otherOrigin = () => setup.shop.url.replace('localhost', '127.0.0.1');

  /** Presses the wallet's button; answers the sheet's popup, its first card ready. */
  async function openSheetPopup(at: WidgetPage, wallet: string): Promise<Page> {
    const [popup] = await Promise.all([at.page.waitForEvent('popup', { timeout: 15_000 }), at.page.getByRole('button', { name: `Pay with ${wallet}` }).click()]);
    await popup.locator('button[value="pay"]').waitFor({ timeout: 15_000 });
    return popup;
  }

  it('a merchant page of another origin than its result page: the sheet in a popup; a forged outcome is ignored; the decline says its reason (tabs), and another card pays', async () => {
    const action = `${otherOrigin()}/result?order=42`;
    const { at, checkoutId } = await open({ layout: 'tabs' }, undefined, { action });
    const button = at.page.getByRole('button', { name: 'Pay with walletA' });
    let popup = await openSheetPopup(at, 'walletA');
    assert.equal(await at.page.locator('dialog.wpwl-overlay').count(), 0, 'no dialog: the page may not frame the sheet');
    assert.equal(new URL(popup.url()).origin, new URL(setup.env.gateway.url).origin, "the sheet is the gateway's page");
    assert.equal(new URL(popup.url()).searchParams.get('opener'), setup.shop.url, "the popup names the merchant page's origin");
    assert.match(await popup.locator('h1').innerText(), /Pay with walletA/);
    await screenshot(popup, 'widget-wallet-sheet-popup');
    // Forgeries: the merchant page's own message, and one from the gateway's origin but not the popup (the card number's frame).
    const forged = { tag: 'wpwl', type: 'wallet', outcome: 'answer', status: 200, body: { id: 'forged', result: { code: '000.100.110', description: 'forged' } } };
    await at.page.evaluate((message) => window.postMessage(message, '*'), forged);
    const cardFrame = at.page.frames().find((frame) => frame.url().startsWith(setup.env.gateway.url) && frame !== at.page.mainFrame());
    assert.ok(cardFrame, "a frame of the gateway's origin on the page");
    await cardFrame.evaluate((message) => window.parent.postMessage(message, '*'), forged);
    await at.page.waitForTimeout(700);
    assert.ok(at.page.url().startsWith(`${setup.shop.url}/checkout/`), 'the forged outcome took the shopper nowhere');
    assert.equal(await button.getAttribute('aria-busy'), 'true', 'the wallet is still waiting for its sheet');
    // The declining card: the popup closes, the reason shows beside the wallet buttons.
    await popup.locator('input[value="visa-0002"]').check();
    await popup.locator('button[value="pay"]').click();
    await at.page.locator('.wpwl-wallets .wpwl-message[role="alert"]').filter({ hasText: DECLINE_TEXTS['en']!.declineBank }).waitFor({ timeout: 15_000 });
    for (let waited = 0; !popup.isClosed() && waited < 10_000; waited += 100) await at.page.waitForTimeout(100);
    assert.equal(popup.isClosed(), true, 'the widget closed the popup');
    assert.equal(await button.isEnabled(), true, 'the wallet can be tried again');
    await docShot(at.page, 'widget-wallet-popup-declined');
    await pageHoldsNoCard(at);
    const declined = await merchantCall(setup.env.gateway.url, setup.env.merchant, 'GET', `/v1/checkouts/${checkoutId}/payment`);
    assert.equal(declined.body['result']?.code, '800.100.100', JSON.stringify(declined.body));
    // The shopper closes the next popup without paying: the button is free again.
    popup = await openSheetPopup(at, 'walletA');
    await popup.close();
    await at.page.waitForFunction(() => document.querySelector('.wpwl-button-wallet-WALLETA')?.getAttribute('aria-busy') === 'false', undefined, { timeout: 15_000 });
    // Another card pays; the shopper lands on the result page of the other origin.
    popup = await openSheetPopup(at, 'walletA');
    await popup.locator('button[value="pay"]').click();
    const payment = await backAtShop(at, checkoutId, `${otherOrigin()}/result`);
    assert.equal(payment['paymentBrand'], 'WALLETA');
    assert.ok(isSuccessCode(String(payment['result']?.code)), JSON.stringify(payment));
    assert.equal(await at.page.getByTestId('result-code').innerText(), payment['result'].code);
    assert.deepEqual(at.errors, []);
    await at.close();
  });

  it('another origin and a blocked popup: the sheet in the whole window, which ends on the result page; declined, the result page says so; paid, too', async () => {
    const action = `${otherOrigin()}/result?order=42`;
    const blocker = 'window.open = () => null;';
    for (const [card, expected] of [['visa-0002', /^800\.100\.100$/], ['master-5454', /^000\./]] as const) {
      const { at, checkoutId } = await open({ layout: 'accordion' }, undefined, { action, initScript: blocker });
      await at.page.getByRole('button', { name: 'Pay with walletB' }).click();
      await at.page.waitForURL((url) => url.href.startsWith(`${setup.env.gateway.url}/v1/checkouts/${checkoutId}/wallet-sheet?`), { timeout: 15_000 });
      assert.equal(new URL(at.page.url()).searchParams.get('window'), 'page');
      await at.page.locator(`input[value="${card}"]`).check();
      if (card === 'visa-0002') await screenshot(at.page, 'widget-wallet-sheet-page');
      await at.page.locator('button[value="pay"]').click();
      const payment = await backAtShop(at, checkoutId, `${otherOrigin()}/result`);
      assert.equal(payment['paymentBrand'], 'WALLETB');
      assert.match(String(payment['result']?.code), expected, JSON.stringify(payment));
      if (card === 'visa-0002') assert.match(String(payment['result']?.description), /declined/i, 'the status call gives the reason');
      assert.equal(await at.page.getByTestId('result-code').innerText(), payment['result'].code, 'the result page shows the result');
      assert.deepEqual(at.errors, []);
      await at.close();
    }
  });
});
