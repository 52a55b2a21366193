/**
 * The developers' pages in headless Chromium (issue 31): each page at desktop width and at 375 px,
 * axe-core finding no serious or critical violation, the forms working without the test poking at
 * the server (create a token, register a webhook, rotate its secret, filter the request log).
 * Screenshots: docs/images/console/developers-*.png (viewport-sized).
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Role } from '../../src/domain/access/roles.js';
import type { CreatedEntity } from '../../src/operations/admin/create-entity.js';
import type { NotificationSender } from '../../src/operations/webhooks/ports.js';
import { insertApiRequests } from '../../src/storage/repositories/api-request-log.js';
import { testDatabases } from '../support/databases.js';
import { signInAs, type ConsoleSession } from '../support/console.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { DESKTOP, PHONE, expectAccessible, expectNoSidewaysScroll, saveConsoleScreenshot, signedInPage, type Viewport } from '../support/console-browser.js';
import { useBrowser } from './support/browser.js';

/** Desktop, and the phone 812 px tall: the size of these pages' screenshots in the docs. */
const VIEWPORTS: readonly Viewport[] = [DESKTOP, { ...PHONE, height: 812 }];

/** A receiver that acknowledges the test and refuses the rest, so the delivery log shows both. */
const receiver: NotificationSender = { send: async (request) => ({ httpStatus: request.body.length % 2 === 0 ? 200 : 503, error: null, latencyMs: 41 }) };

describe('the developers\' pages in a real browser', { timeout: 300_000 }, () => {
  const browser = useBrowser();
  let t: TestApp;
  const sessions = new Map<Role, ConsoleSession>();
  let base: string;
  let merchant: CreatedEntity;

  before(async () => {
    t = await startTestApp(await testDatabases()[0]!.open(), { overrides: { notificationSender: receiver } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    merchant = await t.createMerchant('Corner Shop');
    const channel = await t.createChannel(merchant.entityId, 'Web shop');
    const at = (minutesAgo: number) => new Date(t.clock.now().getTime() - minutesAgo * 60_000);
    const row = (minutesAgo: number, method: string, path: string, status: number, resultCode: string, transactionId: string | null) =>
      ({ entityId: channel.entityId, at: at(minutesAgo), method, path, status, resultCode, durationMs: 20 + minutesAgo, requestId: `req-${minutesAgo}`, transactionId, tokenId: channel.tokenId });
    await insertApiRequests(t.storage, [
      row(30, 'POST', '/v1/payments', 200, '000.100.110', 'c'.repeat(32)),
      row(20, 'POST', '/v1/payments', 400, '100.100.101', null),
      row(12, 'GET', '/v1/payments/' + 'c'.repeat(32), 200, '000.100.110', 'c'.repeat(32)),
      row(5, 'POST', '/v1/payments/' + 'c'.repeat(32), 400, '700.400.100', null),
      row(1, 'POST', '/v1/registrations', 403, '800.900.301', null),
    ]);
  });
  after(async () => {
    await t?.close();
    await t?.storage.close();
  });

  /** A page of a person of `role` signed in through the real sign-in (its session cookie). */
  async function open(role: Role, viewport: Viewport): Promise<Page> {
    if (!sessions.has(role)) sessions.set(role, await signInAs(t, { role, merchantId: merchant.entityId }));
    return signedInPage(browser(), base, sessions.get(role)!, viewport);
  }

  /** Screenshot at both widths (the page reached by `reach`) and the accessibility check on each. */
  async function capture(name: string, role: Role, reach: (page: Page) => Promise<void>): Promise<void> {
    for (const viewport of VIEWPORTS) {
      const page = await open(role, viewport);
      await reach(page);
      await expectAccessible(page, `${name} ${viewport.label}`);
      if (viewport.label === '375') await expectNoSidewaysScroll(page, `${name} at 375 px`);
      await saveConsoleScreenshot(page, `developers-${name}`, viewport);
      await page.context().close();
    }
  }

  it('the index shows the tools a developer may use', async () => {
    await capture('index', 'developer', async (page) => {
      await page.goto(`${base}/console/developers`);
      assert.equal(await page.locator('main a[href="/console/developers/requests"]').count(), 1);
    });
  });

  it('credentials: the list with last use, a token created and shown once, the revoke confirmation', async () => {
    await capture('credentials', 'merchant-admin', async (page) => {
      await page.goto(`${base}/console/developers/credentials`);
      assert.match(await page.locator('table').innerText(), /not in the request log|UTC/);
    });
    await capture('credential-created', 'developer', async (page) => {
      await page.goto(`${base}/console/developers/credentials`);
      await page.selectOption('#entity', { label: 'Web shop (channel)' });
      await page.click('text=Create token');
      await page.waitForSelector('text=shown only once');
      assert.equal(await page.locator('code.dev-secret').count(), 3);
    });
    await capture('credential-revoke', 'developer', async (page) => {
      await page.goto(`${base}/console/developers/credentials`);
      await page.locator('a', { hasText: 'Revoke…' }).first().click();
      await page.waitForSelector('text=cannot be undone');
    });
  });

  it('webhooks: register, the secret once, the test once the receiver holds it, rotation, the delivery log', async () => {
    await capture('webhook-created', 'developer', async (page) => {
      await page.goto(`${base}/console/developers/webhooks`);
      await page.fill('#url', 'https://shop.example/notifications');
      await page.click('button:has-text("Register")');
      await page.waitForSelector('text=shown only once');
    });
    // The test is offered once the person says the receiver holds the secret.
    const page = await open('developer', DESKTOP);
    await page.goto(`${base}/console/developers/webhooks`);
    await page.fill('#url', 'https://shop.example/payments');
    await page.click('button:has-text("Register")');
    await page.check('#stored');
    await page.click('text=Send a test notification');
    await page.waitForSelector('text=Delivery log');
    const webhookPath = new URL(page.url()).pathname;
    await page.context().close();
    await capture('webhooks', 'developer', async (page) => {
      await page.goto(`${base}/console/developers/webhooks`);
    });
    await capture('webhook-detail', 'developer', async (page) => {
      await page.goto(`${base}${webhookPath}`);
      await page.locator('form[action$="/test"] button').click();
      await page.waitForSelector('text=its attempt is the newest');
    });
    await capture('webhook-rotation', 'developer', async (page) => {
      await page.goto(`${base}${webhookPath}`);
      // A rotation left waiting by the other width is dropped first: one new secret at a time.
      const drop = page.locator('button:has-text("Drop the new secret")');
      if ((await drop.count()) === 1) await drop.click();
      await page.locator('button:has-text("Rotate the secret")').click();
      await page.waitForSelector('h1:has-text("New webhook secret")');
    });
    await capture('delivery-request', 'developer', async (page) => {
      await page.goto(`${base}${webhookPath}`);
      await page.locator('td a', { hasText: 'TEST' }).first().click();
      await page.waitForSelector('text=Notification as sent');
      assert.match(await page.locator('pre').innerText(), /"type": "TEST"/);
    });
  });

  it('the request log: newest first, filters, the result code explained, links to payments, field messages', async () => {
    await capture('requests', 'developer', async (page) => {
      await page.goto(`${base}/console/developers/requests`);
      assert.match(await page.locator('tbody').innerText(), /invalid creditcard, bank account number or bank name/);
      assert.equal(await page.locator(`a[href="/console/payments/${'c'.repeat(32)}"]`).count(), 2);
    });
    await capture('requests-filtered', 'developer', async (page) => {
      await page.goto(`${base}/console/developers/requests`);
      await page.click('summary:has-text("Filters")');
      await page.fill('#f-status', '4xx');
      await page.click('button:has-text("Filter")');
      await page.waitForURL(/status=4xx/);
      assert.equal(await page.locator('tbody tr').count(), 3);
    });
    await capture('requests-errors', 'developer', async (page) => {
      await page.goto(`${base}/console/developers/requests?status=4x&from=yesterday`);
      assert.equal(await page.locator('.field-error').count(), 2);
    });
  });
});
