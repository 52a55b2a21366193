import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { loadWidgetScript } from '../../src/http/widget/script-asset.js';
import { loadWidgetTexts } from '../../src/http/widget/texts-asset.js';
import { ENGLISH_TEXTS } from '../../widget/src/i18n/english.js';
import { labelsOf } from '../../widget/src/i18n/index.js';
import { screenshot } from './support/browser.js';
import { useStubSuite } from './support/widget-stub-suite.js';

/**
 * The shopper's language arrives from the gateway (GET /v1/widget/texts/{locale}; the script
 * carries English only, docs/widget.md): the form is drawn in it from the first moment, even
 * when the texts come late; without them it is English and usable; the merchant's labels win;
 * English asks for nothing. Chromium against the gateway's real widget routes, checkout stubbed.
 */

const BRANDS = 'VISA MASTER AMEX';
/** Every text node the page ever shows, recorded as it is added (a flash of English would be caught). */
const RECORD_TEXTS = `window.__texts = []; new MutationObserver((records) => { for (const record of records) for (const node of record.addedNodes) window.__texts.push(node.textContent || ''); }).observe(document, { childList: true, subtree: true });`;

describe('the widget in the shopper language: texts fetched before the form is drawn', { timeout: 300_000 }, () => {
  const suite = useStubSuite();

  async function openWith(options: Record<string, unknown>, texts: 'late' | 'fails' | 'as-is', checkoutId?: string): Promise<{ context: BrowserContext; requests: string[]; shown: () => Promise<string[]> }> {
    const context = await suite.browser().newContext({ viewport: { width: 640, height: 900 } });
    const requests: string[] = [];
    await context.route('**/v1/widget/texts/**', async (route) => {
      requests.push(route.request().url());
      if (texts === 'fails') return route.abort();
      if (texts === 'late') await new Promise((resolve) => setTimeout(resolve, 1_500));
      return route.continue();
    });
    const page = await context.newPage();
    await page.addInitScript(RECORD_TEXTS);
    const id = checkoutId ?? suite.gateway().checkout({ registrations: [] }).id;
    await page.goto(suite.shop().page({ checkoutId: id, brands: BRANDS, options, integrity: loadWidgetScript().integrity }));
    await page.waitForSelector('.wpwl-container[data-wpwl-ready]', { timeout: 15_000 });
    return { context, requests, shown: () => page.evaluate(() => (window as unknown as { __texts: string[] }).__texts) };
  }
  const labelOf = async (context: BrowserContext, name: string) => context.pages()[0]!.locator(`.wpwl-form-card .wpwl-label-${name}`).innerText();

  it('German, its texts an instant late: the form never shows English, and asks with the texts version', async () => {
    const german = labelsOf('de');
    const { context, requests, shown } = await openWith({ locale: 'de-AT', layout: 'tabs' }, 'late');
    assert.deepEqual(requests, [`${suite.gateway().url}/v1/widget/texts/de?v=${loadWidgetTexts().version}`]);
    assert.equal(await labelOf(context, 'cardNumber'), german.cardNumber);
    const everything = (await shown()).join('\n');
    for (const english of [ENGLISH_TEXTS.cardNumber, ENGLISH_TEXTS.cardHolder, ENGLISH_TEXTS.expiryDate]) assert.ok(!everything.includes(english), `never shown: ${english}`);
    assert.ok(everything.includes(german.cardHolder));
    await screenshot(context.pages()[0]!, 'widget-texts-de-late');
    await context.close();
  });

  it("Japanese with the merchant's labels and errorMessages: the merchant's win, the rest is Japanese", async () => {
    const japanese = labelsOf('ja');
    const { context } = await openWith({ locale: 'ja', labels: { cardNumber: 'Numéro de carte' }, errorMessages: { expiryDateError: 'Date, please' } }, 'as-is');
    const page = context.pages()[0]!;
    assert.equal(await labelOf(context, 'cardNumber'), 'Numéro de carte');
    assert.equal(await labelOf(context, 'cardHolder'), japanese.cardHolder);
    assert.equal(await page.locator('.wpwl-form-card .wpwl-button-pay').innerText(), japanese.submit);
    await page.locator('.wpwl-form-card .wpwl-control-expiry').pressSequentially('1');
    await page.locator('.wpwl-form-card .wpwl-control-cardHolder').focus();
    await page.locator('.wpwl-form-card .wpwl-hint-expiryError').filter({ hasText: 'Date, please' }).waitFor({ timeout: 5_000 });
    await context.close();
  });

  it('the texts do not come: the form is English and usable', async () => {
    const { context, requests } = await openWith({ locale: 'ar' }, 'fails');
    assert.equal(requests.length, 1);
    assert.equal(await labelOf(context, 'cardNumber'), ENGLISH_TEXTS.cardNumber);
    assert.equal(await context.pages()[0]!.locator('.wpwl-container').getAttribute('dir'), 'rtl');
    await context.close();
  });

  it('a checkout that is gone says so in the shopper language', async () => {
    const { context } = await openWith({ locale: 'de' }, 'as-is', 'AAAA0000AAAA0000AAAA0000AAAA0000.uat01-vm-tx01');
    assert.equal(await context.pages()[0]!.locator('.wpwl-message[role="alert"]').innerText(), labelsOf('de').checkoutExpired);
    await context.close();
  });

  it('English (and a language outside the 25) asks for no texts', async () => {
    for (const locale of ['en', 'xx']) {
      const { context, requests } = await openWith({ locale }, 'as-is');
      assert.deepEqual(requests, [], locale);
      assert.equal(await labelOf(context, 'cardNumber'), ENGLISH_TEXTS.cardNumber);
      await context.close();
    }
  });
});
