import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import { randomIds } from '../../src/domain/ids.js';
import { insertWebhook } from '../../src/storage/repositories/webhooks.js';
import { signInAs, type ConsoleSession } from '../support/console.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, referencePayment, type Merchant } from '../support/payments.js';
import { json, startTestApp, type TestApp } from '../support/test-app.js';
import { RECEIVER_ENV, WebhookReceiver } from '../support/webhook-receiver.js';
import { DESKTOP, PHONE, expectAccessible, expectNoSidewaysScroll, saveConsoleScreenshot, signedInPage, type Viewport } from '../support/console-browser.js';
import { useBrowser } from './support/browser.js';

/**
 * The console's payment detail page and its refund in headless Chromium (Debian's, through
 * playwright-core), at desktop width and at 375 px: axe-core finds no serious or critical
 * violation, the page and the refund's result are photographed into docs/images/console/, and the
 * refund made by the form is the one the database holds.
 */

/** Desktop, and the phone 812 px tall: the size of this page's screenshots in the docs. */
const VIEWPORTS: readonly Viewport[] = [DESKTOP, { ...PHONE, height: 812 }];

const [pglite] = testDatabases();

describe('the console payment detail page in a real browser', { timeout: 300_000 }, () => {
  const browser = useBrowser();
  let t: TestApp;
  let shop: Merchant;
  let base: string;
  let receiver: WebhookReceiver;
  let session: ConsoleSession;

  before(async () => {
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

  for (const viewport of VIEWPORTS) {
    it(`shows a payment and refunds part of it at ${viewport.label} width, with no serious accessibility violation`, async () => {
      // Minutes apart, as real ones would be (the test clock stands still otherwise); well within the
      // session's idle limit, which the same clock measures.
      const paid = json(await cardPayment(t, shop, 'DB', '49.90', { merchantTransactionId: `order-${viewport.label}` }));
      t.clock.advance(3 * 60_000);
      await referencePayment(t, shop, paid['id'], 'RF', '5.00');
      t.clock.advance(4 * 60_000);
      // Under the console's own CSP: the test watches for CSP errors.
      const page = await signedInPage(browser(), base, session, viewport, { underConsoleCsp: true });
      const errors: string[] = [];
      page.on('console', (message) => {
        // The form sent back answers 400 on purpose; Chromium reports that status as a console error.
        if (message.type() === 'error' && !/status of 400/.test(message.text())) errors.push(message.text());
      });
      const opened = await page.goto(`${base}/console/payments/${paid['id']}`);
      assert.equal(opened?.status(), 200);
      assert.match(await page.locator('h1').innerText(), /DB 49\.90 EUR/);
      await expectAccessible(page, 'the payment');
      await saveConsoleScreenshot(page, 'payment-detail', viewport);
      await expectNoSidewaysScroll(page, 'the payment');

      await page.getByLabel('Amount (EUR)').fill('12.5');
      await Promise.all([page.waitForURL(/done=refund/), page.getByRole('button', { name: 'Refund' }).click()]);
      const flash = page.locator('.flash');
      assert.match(await flash.innerText(), /^Refund [0-9a-f]{32}: success/);
      await expectAccessible(page, 'the refund');
      await flash.scrollIntoViewIfNeeded();
      await saveConsoleScreenshot(page, 'payment-refund', viewport);
      const { rows } = await t.storage.query<{ refunded: string }>('SELECT refunded_minor::text AS refunded FROM transactions WHERE id = $1', [paid['id']]);
      assert.equal(rows[0]!.refunded, '1750', '5.00 by the API and 12.50 by the form');

      await page.getByLabel('Amount (EUR)').fill('12,50');
      await page.getByRole('button', { name: 'Refund' }).click();
      await page.locator('#refund-amount[aria-invalid="true"]').waitFor();
      await expectAccessible(page, 'a refused amount');

      t.clock.advance(2 * 60_000);
      // The notification's delivery log: send the payment's notification again, then look at the timeline.
      await Promise.all([page.waitForURL(/done=resend/), page.getByRole('button', { name: 'Send again' }).first().click()]);
      assert.match(await page.locator('.flash').innerText(), /Notification sent again: acknowledged \(HTTP 200\)/);
      await expectAccessible(page, 'the notification sent again');
      await page.locator('#timeline').scrollIntoViewIfNeeded();
      await page.evaluate(() => document.getElementById('timeline')!.scrollIntoView());
      await saveConsoleScreenshot(page, 'payment-timeline', viewport);
      assert.deepEqual(errors, [], 'no script or CSP error');
      await page.context().close();
    });
  }
});
