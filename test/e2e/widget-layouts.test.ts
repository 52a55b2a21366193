import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { isSuccessCode } from '../../src/results/catalogue.js';
import { docImagesDir, screenshot, seriousViolationsInFrames, useBrowser } from './support/browser.js';
import { createCheckout, merchantCall } from './support/widget-checkout.js';
import { useWidgetShop } from './support/widget-shop.js';
import { CARD, STORED, useStubSuite, waitFor } from './support/widget-stub-suite.js';
import { openWidgetPage, typeCard } from './support/widget-shopper.js';

/**
 * The tabs and accordion layouts (docs/widget.md, Layouts): the methods of one widget, one pay
 * button with the amount, SVG brand marks with the detected brand lit, the bank country as a
 * select, keyboard use, the busy state; at desktop and 375 px, in en, de, ar (right to left) and
 * ja, with axe-core, against the stub checkout (92.00 EUR, deciding as the simulator does); and a
 * card payment in each layout at a real gateway process with the simulator (`npm run build` first).
 * Screenshots: test-artifacts/e2e/widget-layout-*, and the widget alone as docs/images/widget-layout-*
 * (in the docs) with UPDATE_DOC_IMAGES=1, else in a temp folder (support/browser.ts, docImagesDir).
 */

const VIEWPORTS = [
  { label: 'desktop', width: 1280, height: 900 },
  { label: '375', width: 375, height: 900 },
] as const;
const LAYOUTS = ['tabs', 'accordion'] as const;
const BRANDS = 'VISA MASTER AMEX PAYPAL SOFORTUEBERWEISUNG DIRECTDEBIT_SEPA';
/** The element that picks a method in each layout. */
const HEADER = { tabs: '[role="tab"]', accordion: '.wpwl-method-header' } as const;
const CHOSEN = { tabs: 'aria-selected', accordion: 'aria-expanded' } as const;

/** The widget alone, for docs/widget.md. */
async function docImage(page: Page, name: string): Promise<void> {
  await page.locator('.wpwl-container').screenshot({ path: join(docImagesDir(), `${name}.png`) });
}

const chosenLabels = (page: Page, layout: (typeof LAYOUTS)[number]) => page.locator(`${HEADER[layout]}[${CHOSEN[layout]}="true"] .wpwl-method-label`).allInnerTexts();
const visibleForms = (page: Page) => page.locator('.wpwl-form:visible').evaluateAll((forms) => forms.map((form) => form.className));
const plain = (text: string) => text.replace(/\u00a0|\u202f/g, ' ');
/** How the tab list lies: its rows (distinct tops of the tabs), whether it scrolls sideways, whether the page does. */
const tabRow = (page: Page) => page.locator('[role="tablist"]').evaluate((list) => ({
  rows: new Set(Array.from(list.children, (tab) => Math.round(tab.getBoundingClientRect().top))).size,
  scrolls: list.scrollWidth > list.clientWidth,
  pageScrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth,
}));
/** Whether the focused tab is wholly inside the tab list's visible part. */
const focusedTabInView = (page: Page) => page.evaluate(() => {
  const tab = document.activeElement!.getBoundingClientRect();
  const list = document.querySelector('[role="tablist"]')!.getBoundingClientRect();
  return document.activeElement!.getAttribute('role') === 'tab' && tab.left >= list.left - 1 && tab.right <= list.right + 1;
});

describe('the payment widget as tabs or an accordion', { timeout: 600_000 }, () => {
  const suite = useStubSuite();

  for (const layout of LAYOUTS) {
    for (const viewport of VIEWPORTS) {
      it(`${layout}: one pay button with the amount, the card brand lit as typed, one payment for a double click (${viewport.label})`, async () => {
        const { checkout, at } = await suite.open(BRANDS, { layout }, { viewport });
        const page = at.page;
        assert.equal(await page.locator('.wpwl-button-pay').count(), 1, 'exactly one pay button');
        assert.equal(plain(await page.locator('.wpwl-button-pay').innerText()), 'Pay €92.00');
        assert.deepEqual(await page.locator(`${HEADER[layout]} .wpwl-method-label`).allInnerTexts(), ['Card', 'PayPal', 'Sofort', 'SEPA']);
        assert.deepEqual(await visibleForms(page), ['wpwl-form wpwl-form-card wpwl-form-has-inputs wpwl-clearfix'], 'the OPPWA classes on the selected form, the others hidden');
        assert.equal(await page.locator('.wpwl-form-card .wpwl-brand svg.wpwl-brand-logo').count(), 3, 'SVG marks, not text pills');
        assert.deepEqual(await seriousViolationsInFrames(page), [], 'axe: empty');
        await docImage(page, `widget-layout-${layout}-${viewport.label}`);

        await at.numberInput().pressSequentially('5500000000000004');
        await page.locator('.wpwl-form-card .wpwl-brand-MASTER.wpwl-brand-detected').waitFor();
        assert.equal(await page.locator('.wpwl-form-card [aria-live="polite"]').innerText(), 'MASTER', 'announced');
        assert.equal(await page.locator('.wpwl-form-card .wpwl-brand-inactive').count(), 2);
        await at.numberInput().fill('');
        await typeCard(at, CARD);
        await page.locator('.wpwl-form-card .wpwl-brand-VISA.wpwl-brand-detected').waitFor();
        // The answer waits until the busy form is looked at.
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => (release = resolve));
        await at.context.route('**/checkouts/*/payment', async (route) => {
          await held;
          await route.continue();
        });
        // Two clicks in one task, as a double click lands: the first makes the button busy.
        const after = await page.evaluate(() => {
          const button = document.querySelector<HTMLButtonElement>('.wpwl-button-pay')!;
          button.click();
          button.click();
          return { disabled: button.disabled, busy: button.getAttribute('aria-busy'), text: button.textContent };
        });
        assert.deepEqual(after, { disabled: true, busy: 'true', text: 'Processing…' });
        await screenshot(page, `widget-layout-${layout}-busy-${viewport.label}`);
        assert.deepEqual(await seriousViolationsInFrames(page), [], 'axe: busy');
        await page.locator('.wpwl-button-pay').click({ force: true });
        release();
        const back = await suite.backAtShop(at);
        assert.equal(back.searchParams.get('id'), checkout.id);
        assert.equal(checkout.payments.length, 1, 'one payment for two clicks');
        assert.equal(checkout.payments[0]!['paymentBrand'], 'VISA');
        assert.equal(checkout.payments[0]!['card.holder'], CARD.holder);
        assert.deepEqual(at.errors, []);
        await at.close();
      });
    }

    it(`${layout}: the keyboard moves between the methods, the button pays with the chosen one`, async () => {
      const { checkout, at } = await suite.open(BRANDS, { layout }, { registrations: [STORED] });
      const page = at.page;
      assert.deepEqual(await chosenLabels(page, layout), ['Your stored cards'], 'the stored cards come first');
      await screenshot(page, `widget-layout-${layout}-stored`);
      assert.deepEqual(await seriousViolationsInFrames(page), [], 'axe: stored cards');
      await page.locator(HEADER[layout]).first().focus();
      if (layout === 'tabs') {
        assert.deepEqual(await page.locator('[role="tab"]').evaluateAll((tabs) => tabs.map((tab) => (tab as HTMLElement).tabIndex)), [0, -1, -1, -1, -1], 'roving tabindex');
        await page.keyboard.press('ArrowRight');
        assert.deepEqual(await chosenLabels(page, layout), ['Card']);
        await page.keyboard.press('End');
        assert.deepEqual(await chosenLabels(page, layout), ['SEPA']);
        await page.keyboard.press('ArrowRight');
        assert.deepEqual(await chosenLabels(page, layout), ['Your stored cards'], 'wraps around');
        await page.keyboard.press('ArrowLeft');
        await page.keyboard.press('ArrowUp');
        assert.deepEqual(await chosenLabels(page, layout), ['Sofort']);
        await page.keyboard.press('Home');
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowRight');
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-selected')), 'true', 'focus follows the selection');
      } else {
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type), 'radio', 'into the open panel: the stored card');
        for (let step = 0; step < 30; step += 1) {
          if ((await page.evaluate(() => document.activeElement?.querySelector('.wpwl-method-label')?.textContent)) === 'PayPal') break;
          await page.keyboard.press('Tab');
        }
        await page.keyboard.press('Enter');
        assert.deepEqual(await chosenLabels(page, layout), ['PayPal']);
        assert.equal(await page.locator('.wpwl-method-header').first().getAttribute('aria-expanded'), 'false', 'one open at a time');
      }
      assert.deepEqual(await chosenLabels(page, layout), ['PayPal']);
      const form = await page.locator('.wpwl-button-pay').getAttribute('form');
      assert.equal(await page.locator(`#${form}`).getAttribute('data-brand'), 'PAYPAL', 'the button submits the chosen form');
      assert.deepEqual(await seriousViolationsInFrames(page), [], 'axe: PayPal chosen');
      await page.keyboard.press('Tab');
      for (let step = 0; step < 10 && !(await page.evaluate(() => document.activeElement?.classList.contains('wpwl-button-pay'))); step += 1) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      // No redirectTarget: these layouts show the provider's page over the merchant's (docs/widget.md).
      await page.locator('dialog.wpwl-overlay[open]').waitFor();
      await waitFor(async () => page.frames().some((frame) => /\/stub\/provider/.test(frame.url())), 'the provider in the overlay');
      assert.ok(page.url().startsWith(suite.shop().url), 'the shopper stays on the merchant page');
      assert.equal(checkout.payments.length, 1);
      assert.equal(checkout.payments[0]!['paymentBrand'], 'PAYPAL');
      await at.close();
    });

    it(`${layout}: redirectTarget 'page' still sends the whole window to the provider`, async () => {
      const { checkout, at } = await suite.open(BRANDS, { layout, redirectTarget: 'page' });
      await at.page.locator(HEADER[layout]).nth(1).click();
      await at.page.locator('.wpwl-button-pay').click();
      await at.page.waitForURL(/\/stub\/provider/);
      assert.equal(checkout.payments[0]!['paymentBrand'], 'PAYPAL');
      await at.close();
    });
  }

  for (const [locale, layout, country, name, amount] of [
    ['de', 'tabs', 'DE', 'Deutschland', '92,00 € zahlen'],
    ['ar', 'accordion', undefined, undefined, undefined],
    ['ar', 'tabs', undefined, undefined, undefined],
    ['ja', 'tabs', undefined, 'ドイツ', undefined],
  ] as const) {
    for (const viewport of VIEWPORTS) {
      it(`${layout} in ${locale}: the bank country as a select in the shopper's language (${viewport.label})`, async () => {
        const { checkout, at } = await suite.open(BRANDS, { layout, locale }, { viewport });
        const page = at.page;
        const container = page.locator('.wpwl-container');
        assert.equal(await container.getAttribute('dir'), locale === 'ar' ? 'rtl' : 'ltr');
        if (amount) assert.equal(plain(await page.locator('.wpwl-button-pay').innerText()), amount);
        if (layout === 'tabs') assert.deepEqual(await tabRow(page), { rows: 1, scrolls: false, pageScrolls: false }, 'the four tabs in one row');
        await page.locator(HEADER[layout]).nth(2).click();
        const select = page.locator('select[name="bankAccount.country"]');
        await select.waitFor();
        const first = await select.locator('option').first().evaluate((option) => ({ value: (option as HTMLOptionElement).value, text: option.textContent }));
        if (country) assert.deepEqual(first, { value: country, text: name }, 'the shopper’s country first, in their language');
        else assert.deepEqual(first, { value: '', text: '—' }, 'no country known: the shopper chooses');
        if (locale === 'ja') assert.equal(await select.locator('option[value="DE"]').innerText(), 'ドイツ');
        if (locale === 'ar') assert.equal(await select.locator('option[value="DE"]').innerText(), 'ألمانيا');
        assert.equal(await select.getAttribute('autocomplete'), 'country');
        assert.equal(await page.locator('.wpwl-form-card .wpwl-control-cardHolder').getAttribute('autocomplete'), 'cc-name');
        assert.equal(await page.locator('.wpwl-form-card .wpwl-control-expiry').getAttribute('autocomplete'), 'cc-exp');
        if (!country) {
          await page.locator('.wpwl-button-pay').click();
          await page.locator('.wpwl-hint-countryError:not([hidden])').waitFor();
          assert.equal(checkout.payments.length, 0, 'nothing sent without a country');
          await screenshot(page, `widget-layout-${locale}-error-${viewport.label}`);
          assert.deepEqual(await seriousViolationsInFrames(page), [], `axe: ${locale}, with an error`);
        }
        await select.selectOption('AT');
        await screenshot(page, `widget-layout-${layout}-${locale}-${viewport.label}`);
        if (layout === 'tabs' || viewport.label === '375') await docImage(page, `widget-layout-${layout}-${locale}-${viewport.label}`);
        assert.deepEqual(await seriousViolationsInFrames(page), [], `axe: ${locale}`);
        await page.locator('.wpwl-button-pay').click();
        await waitFor(async () => checkout.payments.length === 1, 'the payment');
        assert.equal(checkout.payments[0]!['paymentBrand'], 'SOFORTUEBERWEISUNG');
        assert.equal(checkout.payments[0]!['bankAccount.country'], 'AT', 'the same field and two-letter value as the text box');
        await at.close();
      });
    }
  }

  for (const locale of ['en', 'de', 'ar', 'ja'] as const) {
    it(`tabs at 375 px in ${locale}: five methods stay in one row, scrolling sideways where they do not fit; the keys bring the chosen tab into view`, async () => {
      const { at } = await suite.open(BRANDS, { layout: 'tabs', locale }, { viewport: { width: 375, height: 900 }, registrations: [STORED] });
      const page = at.page;
      const row = await tabRow(page);
      assert.equal(row.rows, 1, 'one row');
      assert.equal(row.pageScrolls, false, 'the page itself does not scroll sideways');
      await screenshot(page, `widget-layout-tabs-five-${locale}-375`);
      await page.locator('[role="tab"]').first().focus();
      await page.keyboard.press('End');
      assert.ok(await focusedTabInView(page), 'End: the last tab scrolled into view');
      await page.keyboard.press(locale === 'ar' ? 'ArrowLeft' : 'ArrowRight');
      assert.equal(await page.locator('[role="tab"][aria-selected="true"]').evaluate((tab) => tab === tab.parentElement!.firstElementChild), true, 'forward from the last: the first');
      assert.ok(await focusedTabInView(page), 'and the first in view again');
      assert.deepEqual(await seriousViolationsInFrames(page), [], `axe: five tabs in ${locale}`);
      await at.close();
    });
  }

  it('forms (OPPWA): the pay buttons go busy, and a double click sends one payment (card, then SEPA)', async () => {
    for (const method of ['card', 'sepa'] as const) {
      const { checkout, at } = await suite.open(BRANDS, {});
      const page = at.page;
      const form = method === 'card' ? '.wpwl-form-card' : '.wpwl-form-directDebit';
      if (method === 'card') {
        await typeCard(at, CARD);
        assert.equal(await at.numberInput().getAttribute('autocomplete'), 'cc-number');
        assert.equal(await at.cvvInput().getAttribute('autocomplete'), 'cc-csc');
      } else {
        await page.locator(`${form} [name="bankAccount.holder"]`).fill('Jane Jones');
        await page.locator(`${form} [name="bankAccount.iban"]`).fill('DE89 3704 0044 0532 0130 00');
        assert.deepEqual(await page.locator(`${form} input`).evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).autocomplete)), ['name', 'off', 'off']);
      }
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await at.context.route('**/checkouts/*/payment', async (route) => {
        await held;
        await route.continue();
      });
      const after = await page.evaluate((selector) => {
        const button = document.querySelector<HTMLButtonElement>(`${selector} .wpwl-button-pay`)!;
        button.click();
        button.click();
        return { disabled: button.disabled, busy: button.getAttribute('aria-busy'), text: button.textContent };
      }, form);
      assert.deepEqual(after, { disabled: true, busy: 'true', text: 'Processing…' }, method);
      if (method === 'sepa') await page.locator(`${form} [name="bankAccount.iban"]`).press('Enter');
      release();
      await suite.backAtShop(at);
      assert.equal(checkout.payments.length, 1, `${method}: one payment for two clicks`);
      await at.close();
    }
  });

  it("the checkout's country wins over the locale's: chosen and first in the list, and in OPPWA's text box", async () => {
    const { checkout, at } = await suite.open(BRANDS, { layout: 'tabs', locale: 'de-AT' }, { country: 'CH' });
    await at.page.locator('[role="tab"]').nth(2).click();
    const select = at.page.locator('select[name="bankAccount.country"]');
    assert.deepEqual(await select.locator('option').first().evaluate((option) => ({ value: (option as HTMLOptionElement).value, text: option.textContent })), { value: 'CH', text: 'Schweiz' });
    assert.equal(await select.inputValue(), 'CH', 'chosen');
    assert.equal(await select.locator('option[value="AT"]').count(), 1, 'the locale’s country stays in the list, once');
    await screenshot(at.page, 'widget-layout-tabs-country-from-checkout');
    await at.page.locator('.wpwl-button-pay').click();
    await waitFor(async () => checkout.payments.length === 1, 'the payment');
    assert.equal(checkout.payments[0]!['bankAccount.country'], 'CH');
    await at.close();
    const forms = await suite.open(BRANDS, { locale: 'de-AT' }, { country: 'CH' });
    assert.equal(await forms.at.page.locator('input[name="bankAccount.country"]').inputValue(), 'CH', 'OPPWA’s box is prefilled the same way');
    await forms.at.close();
  });

  it('right to left: the arrow keys follow the reading direction', async () => {
    const { at } = await suite.open(BRANDS, { layout: 'tabs', locale: 'ar' });
    await at.page.locator('[role="tab"]').first().focus();
    await at.page.keyboard.press('ArrowLeft');
    assert.deepEqual(await chosenLabels(at.page, 'tabs'), ['PayPal'], 'left is forward in Arabic');
    await at.close();
  });

  it('without layout the OPPWA forms stay as they are: a button per form, text marks, the country as a text box', async () => {
    const { at } = await suite.open(BRANDS, {});
    assert.equal(await at.page.locator('.wpwl-button-pay').count(), 4);
    assert.equal(await at.page.locator('.wpwl-methods, [role="tab"], svg').count(), 0);
    assert.equal(await at.page.locator('input[name="bankAccount.country"]').count(), 1);
    assert.equal(await at.page.locator('.wpwl-button-pay').first().innerText(), 'Pay now', 'no amount unless asked for');
    await at.close();
  });
});

describe('the tabs and accordion layouts at a real gateway (the simulator)', { timeout: 300_000 }, () => {
  const browser = useBrowser();
  const setup = useWidgetShop();

  for (const layout of LAYOUTS) {
    it(`${layout}: a card payment through the one pay button`, async () => {
      const checkout = await createCheckout(setup.env);
      const at = await openWidgetPage(browser(), setup.shop.page({ checkoutId: checkout.id, integrity: checkout.integrity, brands: BRANDS, options: { layout } }));
      await typeCard(at, { ...CARD, expiry: '0534' });
      await at.page.click('.wpwl-button-pay');
      await at.page.waitForURL((url) => url.href.startsWith(`${setup.shop.url}/result`), { timeout: 30_000 });
      const status = await merchantCall(setup.env.gateway.url, setup.env.merchant, 'GET', `/v1/checkouts/${checkout.id}/payment`);
      assert.ok(isSuccessCode(String(status.body['result']?.code)), JSON.stringify(status.body));
      assert.equal(status.body['paymentBrand'], 'VISA');
      assert.equal(status.body['amount'], '92.00');
      assert.deepEqual(at.errors, []);
      await at.close();
    });
  }
});
