import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { randomIds } from '../../src/domain/ids.js';
import { insertWebhook } from '../../src/storage/repositories/webhooks.js';
import { signInAs, type ConsoleSession } from '../support/console.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, referencePayment, type Merchant } from '../support/payments.js';
import { json, startTestApp, type TestApp } from '../support/test-app.js';
import { RECEIVER_ENV, WebhookReceiver } from '../support/webhook-receiver.js';
import { useBrowser } from './support/browser.js';

/**
 * The console's payment detail page and its refund in headless Chromium (Debian's, through
 * playwright-core), at desktop width and at 375 px: axe-core finds no serious or critical
 * violation, the page and the refund's result are photographed into docs/images/console/, and the
 * refund made by the form is the one the database holds.
 */

const IMAGES = new URL('../../docs/images/console/', import.meta.url).pathname;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: '375', viewport: { width: 375, height: 812 } },
] as const;

async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the console's CSP (script-src 'self') refuses an injected <script>, rightly.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

async function contextFor(browser: ReturnType<ReturnType<typeof useBrowser>>, base: string, session: ConsoleSession, viewport: { width: number; height: number }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  const [name, value] = session.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: base }]);
  return context;
}

const [pglite] = testDatabases();

describe('the console payment detail page in a real browser', { timeout: 300_000 }, () => {
  const browser = useBrowser();
  let t: TestApp;
  let shop: Merchant;
  let base: string;
  let receiver: WebhookReceiver;
  let session: ConsoleSession;

  before(async () => {
    mkdirSync(IMAGES, { recursive: true });
    t = await startTestApp(await pglite!.open(), { env: { LOG_LEVEL: 'warn', ...RECEIVER_ENV } });
    shop = await t.createMerchant('Bookshop');
    receiver = await WebhookReceiver.start();
    // Active from the start, so every payment has a notification to show and to send again.
    const now = t.clock.now();
    await insertWebhook(t.storage, { id: randomIds.id(), entityId: shop.entityId, url: receiver.url('/hooks'), secret: 'b'.repeat(64), status: 'active', createdAt: now, updatedAt: now, activatedAt: now, notificationTypes: ['PAYMENT'] });
    receiver.setSecret('/hooks', 'b'.repeat(64));
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    // Support may refund and send notifications again (the roles table).
    session = await signInAs(t, { role: 'support', merchantId: shop.entityId, email: 'support@bookshop.example' });
  });
  after(async () => {
    await receiver?.stop();
    await t?.close();
    await t?.storage.close();
  });

  for (const { name, viewport } of WIDTHS) {
    it(`shows a payment and refunds part of it at ${name} width, with no serious accessibility violation`, async () => {
      // Minutes apart, as real ones would be (the test clock stands still otherwise); well within the
      // session's idle limit, which the same clock measures.
      const paid = json(await cardPayment(t, shop, 'DB', '49.90', { merchantTransactionId: `order-${name}` }));
      t.clock.advance(3 * 60_000);
      await referencePayment(t, shop, paid['id'], 'RF', '5.00');
      t.clock.advance(4 * 60_000);
      const context = await contextFor(browser(), base, session, viewport);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        // The form sent back answers 400 on purpose; Chromium reports that status as a console error.
        if (message.type() === 'error' && !/status of 400/.test(message.text())) errors.push(message.text());
      });
      const opened = await page.goto(`${base}/console/payments/${paid['id']}`);
      assert.equal(opened?.status(), 200);
      assert.match(await page.locator('h1').innerText(), /DB 49\.90 EUR/);
      assert.deepEqual(await seriousViolations(page), []);
      await page.screenshot({ path: `${IMAGES}payment-detail-${name}.png` });
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scrollWidth <= viewport.width, `no sideways scrolling (${scrollWidth} px)`);

      await page.getByLabel('Amount (EUR)').fill('12.5');
      await Promise.all([page.waitForURL(/done=refund/), page.getByRole('button', { name: 'Refund' }).click()]);
      const flash = page.locator('.flash');
      assert.match(await flash.innerText(), /^Refund [0-9a-f]{32}: success/);
      assert.deepEqual(await seriousViolations(page), []);
      await flash.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${IMAGES}payment-refund-${name}.png` });
      const { rows } = await t.storage.query<{ refunded: string }>('SELECT refunded_minor::text AS refunded FROM transactions WHERE id = $1', [paid['id']]);
      assert.equal(rows[0]!.refunded, '1750', '5.00 by the API and 12.50 by the form');

      await page.getByLabel('Amount (EUR)').fill('12,50');
      await page.getByRole('button', { name: 'Refund' }).click();
      await page.locator('#refund-amount[aria-invalid="true"]').waitFor();
      assert.deepEqual(await seriousViolations(page), []);

      t.clock.advance(2 * 60_000);
      // The notification's delivery log: send the payment's notification again, then look at the timeline.
      await Promise.all([page.waitForURL(/done=resend/), page.getByRole('button', { name: 'Send again' }).first().click()]);
      assert.match(await page.locator('.flash').innerText(), /Notification sent again: acknowledged \(HTTP 200\)/);
      assert.deepEqual(await seriousViolations(page), []);
      await page.locator('#timeline').scrollIntoViewIfNeeded();
      await page.evaluate(() => document.getElementById('timeline')!.scrollIntoView());
      await page.screenshot({ path: `${IMAGES}payment-timeline-${name}.png` });
      assert.deepEqual(errors, [], 'no script or CSP error');
      await context.close();
    });
  }
});
