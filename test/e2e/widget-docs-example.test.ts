import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { screenshot, useBrowser } from './support/browser.js';
import { startGatewayWithWebhook, type GatewayWithWebhook } from './support/gateway.js';
import { paymentNotification } from './support/widget-checkout.js';
import { outcomeButton } from './support/shopper.js';
import { typeCard, type WidgetPage } from './support/widget-shopper.js';
import { freePort } from '../support/free-port.js';

/**
 * docs/widget.md promises a merchant page that works when copied: its `shop.mjs` is taken from
 * the document as it stands, run with node against a real gateway, and a shopper pays there in
 * Chromium, with the plain test card and with the 3-D Secure card the document recommends.
 */

const DOC = new URL('../../docs/widget.md', import.meta.url);

function exampleOf(markdown: string): string {
  const match = /<!-- example: shop\.mjs -->\s*```js\n([\s\S]*?)```\s*<!-- end example -->/.exec(markdown);
  if (!match) throw new Error('docs/widget.md has no shop.mjs example between its markers');
  return match[1]!;
}


describe("docs/widget.md's merchant page, copied as it is", { timeout: 300_000 }, () => {
  const browser = useBrowser();
  let env: GatewayWithWebhook;
  let shop: ChildProcess;
  let shopUrl = '';
  let folder = '';

  before(async () => {
    env = await startGatewayWithWebhook();
    folder = mkdtempSync(join(tmpdir(), 'widget-shop-'));
    writeFileSync(join(folder, 'shop.mjs'), exampleOf(readFileSync(DOC, 'utf8')));
    const port = await freePort();
    shopUrl = `http://localhost:${port}`;
    shop = spawn(process.execPath, ['shop.mjs'], {
      cwd: folder,
      env: { ...process.env, GATEWAY_URL: env.gateway.url, ENTITY_ID: env.merchant.entityId, ACCESS_TOKEN: env.merchant.accessToken, PORT: String(port), SHOP_URL: shopUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    shop.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    shop.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 10_000;
    while (!output.includes('shop on')) {
      if (Date.now() > deadline || shop.exitCode !== null) throw new Error(`shop.mjs did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  after(async () => {
    if (shop && shop.exitCode === null) {
      shop.kill('SIGTERM');
      await once(shop, 'exit');
    }
    await env?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /** A shopper on the shop's page in Chromium, the card typed, the pay button clicked. */
  async function shopperPays(lang: string, number: string): Promise<WidgetPage> {
    const context = await browser().newContext({ locale: lang });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && !/favicon/.test(message.text()) && errors.push(message.text()));
    await page.goto(`${shopUrl}/?lang=${lang}`);
    await page.waitForSelector('.wpwl-container[data-wpwl-ready]', { timeout: 15_000 });
    const at: WidgetPage = {
      context,
      page,
      errors,
      numberInput: () => page.frameLocator('.wpwl-form-card iframe.wpwl-control-cardNumber').locator('input'),
      cvvInput: () => page.frameLocator('.wpwl-form-card iframe.wpwl-control-cvv').locator('input'),
      close: () => context.close(),
    };
    await typeCard(at, { number, expiry: '0534', cvv: '123', holder: 'Jane Jones' });
    await screenshot(page, `widget-docs-example-${lang}-${number.slice(-4)}`);
    await page.click('.wpwl-form-card .wpwl-button-pay');
    return at;
  }

  async function thankedAndNotified(at: WidgetPage): Promise<void> {
    await at.page.waitForURL((url) => url.href.startsWith(`${shopUrl}/result`), { timeout: 30_000 });
    assert.equal(await at.page.locator('#outcome').innerText(), 'Thank you for your order!');
    const paymentId = await at.page.locator('#payment-id').innerText();
    const code = await at.page.locator('#result-code').innerText();
    await paymentNotification(env, paymentId, code);
    assert.deepEqual(at.errors.filter((error) => /Content Security Policy|Refused/.test(error)), [], 'the documented policy lets the widget work');
  }

  for (const lang of ['en', 'de']) {
    it(`a shopper pays on it (${lang})`, async () => {
      const at = await shopperPays(lang, '4200000000000000');
      await thankedAndNotified(at);
      await at.close();
    });
  }

  it('a shopper pays with the 3-D Secure card the page recommends, through its challenge', async () => {
    const at = await shopperPays('en', '4200000000000042');
    await outcomeButton(at.page, 'Y').waitFor({ timeout: 30_000 }).catch(async (error: Error) => {
      await screenshot(at.page, 'widget-docs-example-3ds-failed');
      throw new Error(`${error.message}\nat ${at.page.url()}: ${await at.page.locator('body').innerText()}`);
    });
    await outcomeButton(at.page, 'Y').click();
    await thankedAndNotified(at);
    await at.close();
  });
});
