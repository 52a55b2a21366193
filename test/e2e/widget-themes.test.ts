import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, seriousViolationsInFrames } from './support/browser.js';
import { CARD, STORED, useStubSuite } from './support/widget-stub-suite.js';
import { typeCard } from './support/widget-shopper.js';

/**
 * Themes (docs/widget.md, Themes): wpwlOptions.theme and the page's own --wpwl-* variables, the
 * dark scheme from the shopper's preference or wpwlOptions.colorScheme, and the amount on the pay
 * button in the shopper's language; each at desktop and 375 px, with axe-core in the page and in
 * the gateway's card frames. The stub checkout is 92.00 EUR. Screenshots: test-artifacts/e2e/widget-theme-*.
 */

const VIEWPORTS = [
  { label: 'desktop', width: 1280, height: 900 },
  { label: '375', width: 375, height: 900 },
] as const;
const BRAND = { colorPrimary: '#0a6b4f', colorText: '#2d2a26', colorBackground: '#fffaf2', colorError: '#a4161a', radius: '12px', fontFamily: '"DejaVu Serif", serif' };
const DARK_SHOP = 'body{background:#121417;color:#e8eaed}';

const computed = (page: Page, selector: string, property: string) => page.locator(selector).first().evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);
const frameInput = (page: Page) => page.frameLocator('.wpwl-form-card iframe.wpwl-control-cardNumber').locator('input');

describe('the payment widget themed: CSS variables, dark mode, the amount on the button', { timeout: 300_000 }, () => {
  const suite = useStubSuite();

  for (const viewport of VIEWPORTS) {
    it(`wpwlOptions.theme colours the page's form and the card frames (${viewport.label})`, async () => {
      const { at } = await suite.open('VISA MASTER', { theme: BRAND, amountOnButton: true }, { viewport });
      assert.equal(await computed(at.page, '.wpwl-form-card .wpwl-button-pay', 'background-color'), 'rgb(10, 107, 79)');
      assert.equal(await computed(at.page, '.wpwl-form-card .wpwl-control-expiry', 'border-top-left-radius'), '12px');
      assert.equal(await computed(at.page, '.wpwl-form-card', 'background-color'), 'rgb(255, 250, 242)');
      assert.match(await computed(at.page, '.wpwl-form-card .wpwl-control-expiry', 'font-family'), /DejaVu Serif/);
      // The frame took the page's font, text colour and background through its checked style.
      assert.match(await frameInput(at.page).evaluate((input) => getComputedStyle(input).fontFamily), /DejaVu Serif/);
      assert.equal(await frameInput(at.page).evaluate((input) => getComputedStyle(input).color), 'rgb(45, 42, 38)');
      assert.equal(await frameInput(at.page).evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(255, 250, 242)');
      assert.equal(await at.page.locator('.wpwl-button-pay').innerText(), 'Pay €92.00');
      await at.numberInput().pressSequentially('4200000000000000');
      await at.page.click('.wpwl-form-card .wpwl-button-pay');
      await at.page.locator('.wpwl-hint-expiryError:not([hidden])').waitFor();
      assert.equal(await computed(at.page, '.wpwl-hint-expiryError', 'color'), 'rgb(164, 22, 26)', 'the theme’s error colour');
      await screenshot(at.page, `widget-theme-${viewport.label}`);
      assert.deepEqual(await seriousViolationsInFrames(at.page), [], 'axe: the themed form with errors');
      assert.deepEqual(at.errors, []);
      await at.close();
    });

    it(`dark mode from the shopper's preference reaches the card frames (${viewport.label})`, async () => {
      const { at } = await suite.open('VISA MASTER PAYPAL', {}, { viewport, colorScheme: 'dark', pageCss: DARK_SHOP, registrations: [STORED] });
      assert.match(String(await at.page.locator('.wpwl-container').getAttribute('class')), /wpwl-scheme-dark/);
      assert.equal(await computed(at.page, '.wpwl-form-card', 'background-color'), 'rgb(30, 34, 39)');
      assert.equal(await computed(at.page, '.wpwl-form-card .wpwl-label-cardNumber', 'color'), 'rgb(232, 234, 237)');
      assert.equal(await frameInput(at.page).evaluate(() => getComputedStyle(document.documentElement).colorScheme), 'dark', 'the frame’s scheme matches, so it stays see-through');
      assert.equal(await frameInput(at.page).evaluate((input) => getComputedStyle(input).color), 'rgb(232, 234, 237)');
      assert.equal(await at.cvvInput('.wpwl-form-registrations').evaluate((input) => getComputedStyle(input).color), 'rgb(232, 234, 237)', 'the stored card’s CVV frame too');
      assert.deepEqual(await seriousViolationsInFrames(at.page), [], 'axe: dark, empty');
      await at.numberInput().pressSequentially('4200000000000001');
      await at.page.click('.wpwl-form-card .wpwl-button-pay');
      await at.page.locator('.wpwl-hint-cardNumberError:not([hidden])').waitFor();
      assert.equal(await frameInput(at.page).evaluate((input) => getComputedStyle(input).color), 'rgb(255, 138, 128)', 'the number in error, in the dark error colour');
      await screenshot(at.page, `widget-dark-${viewport.label}`);
      assert.deepEqual(await seriousViolationsInFrames(at.page), [], 'axe: dark, with errors');
      await at.close();
    });

    for (const [locale, text] of [['en', 'Pay €92.00'], ['de', '92,00 € zahlen']] as const) {
      it(`the pay button says the amount in ${locale} (${viewport.label})`, async () => {
        const { at } = await suite.open('VISA MASTER PAYPAL', { locale, amountOnButton: true }, { viewport });
        const buttons = await at.page.locator('.wpwl-button-pay').allInnerTexts();
        assert.deepEqual(buttons.map((button) => button.replace(/\u00a0|\u202f/g, ' ')), [text, text], 'every pay button');
        await screenshot(at.page, `widget-amount-${locale}-${viewport.label}`);
        assert.deepEqual(await seriousViolationsInFrames(at.page), [], `axe: ${locale}`);
        await at.close();
      });
    }
  }

  it('after a refused payment the button says the amount again', async () => {
    const { checkout, at } = await suite.open('VISA', { amountOnButton: true });
    await typeCard(at, { ...CARD, number: '4012888888881881' });
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await at.page.locator('.wpwl-hint-cardNumberError:not([hidden])').waitFor();
    assert.equal(checkout.payments.length, 1, 'it was sent and refused by the gateway');
    assert.equal(await at.page.locator('.wpwl-button-pay').innerText(), 'Pay €92.00');
    assert.equal(await at.page.locator('.wpwl-button-pay').isEnabled(), true);
    await at.close();
  });

  it('the page may set the variables itself; colorScheme overrides the preference both ways', async () => {
    const page = await suite.open('VISA', {}, { pageCss: ':root{--wpwl-color-primary:#6b2c91;--wpwl-radius:0}' });
    assert.equal(await computed(page.at.page, '.wpwl-button-pay', 'background-color'), 'rgb(107, 44, 145)');
    assert.equal(await computed(page.at.page, '.wpwl-control-expiry', 'border-top-left-radius'), '0px');
    await page.at.close();
    const light = await suite.open('VISA', { colorScheme: 'light' }, { colorScheme: 'dark' });
    assert.match(String(await light.at.page.locator('.wpwl-container').getAttribute('class')), /wpwl-scheme-light/);
    assert.equal(await computed(light.at.page, '.wpwl-form-card', 'background-color'), 'rgb(255, 255, 255)');
    await light.at.close();
    const dark = await suite.open('VISA', { colorScheme: 'dark', style: 'plain' }, { colorScheme: 'light' });
    assert.match(String(await dark.at.page.locator('.wpwl-container').getAttribute('class')), /wpwl-scheme-dark/);
    assert.equal(await computed(dark.at.page, '.wpwl-container', 'background-color'), 'rgb(30, 34, 39)', 'without boxes, a dark widget brings its background');
    assert.deepEqual(await seriousViolationsInFrames(dark.at.page), [], 'axe: dark and plain on a light page');
    await dark.at.close();
  });

  it('a theme value that is not plainly a colour, length or font is dropped; the merchant’s own submit text wins over the amount', async () => {
    const { at } = await suite.open('VISA', { amountOnButton: true, labels: { submit: 'Buy now' }, theme: { colorPrimary: 'red;background:url(https://evil.example/x)', radius: 'calc(1px)', colorText: '#123' } });
    const style = await at.page.locator('.wpwl-container').getAttribute('style');
    assert.equal(style, '--wpwl-color-text: #123;');
    assert.equal(await at.page.locator('.wpwl-button-pay').innerText(), 'Buy now');
    await at.close();
  });

  it('the card frame applies only checked values from its address, whoever embeds it', async () => {
    const page = await suite.browser().newPage();
    const settings = {
      field: 'number', session: 'x', parentOrigin: 'http://localhost', checkoutId: 'X', purpose: 'payment', brands: ['VISA'], poster: false, collect: [], label: 'Card number', placeholder: '', formatting: true, lang: 'en', dir: 'ltr',
      style: { color: 'rgb(1, 2, 3)', 'background-color': 'url(https://evil.example/pixel)', 'font-family': '"x"; background: url(https://evil.example/y)', 'font-size': '18px', 'background-image': 'url(https://evil.example/z)' },
    };
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${suite.gateway().url}/v1/widget/frame#${encodeURIComponent(JSON.stringify(settings))}`);
    await page.locator('#field[aria-label="Card number"]').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute('style')), '--text: rgb(1, 2, 3);');
    assert.equal(await page.locator('#field').getAttribute('style'), 'text-align: left; font-size: 18px;');
    assert.ok(!requests.some((url) => url.includes('evil.example')), requests.join('\n'));
    await page.close();
  });
});
