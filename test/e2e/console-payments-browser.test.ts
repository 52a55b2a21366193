/**
 * The payments search page in Chromium at desktop width and at 375 px: axe-core finds no serious
 * or critical violation, the table scrolls inside its region rather than the page, and the
 * screenshots in docs/images/console/ are taken from it.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { signInAs, type ConsoleSession } from '../support/console.js';
import { hexId, insertEntity, insertPayments, type SeedPayment } from '../support/payment-search.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { DESKTOP, PHONE, expectAccessible, expectNoSidewaysScroll, saveConsoleScreenshot, signedInPage } from '../support/console-browser.js';
import { useBrowser } from './support/browser.js';

const merchant = hexId('browser merchant');
const channel = hexId('browser channel');

const HOLDERS = ['Anna Müller', 'Ben Weber', 'Chloe Dubois', 'David Rossi', 'Emma Smith', 'Felix Novak'];
const PAYMENTS: SeedPayment[] = Array.from({ length: 12 }, (_, i) => ({
  name: `browser-${i}`, entityId: channel, createdAt: new Date(Date.UTC(2026, 10, 27, 8, 59 - i * 7)),
  amountMinor: BigInt(1999 + i * 2500), currency: i % 4 === 3 ? 'USD' : 'EUR', brand: i % 3 === 0 ? 'MASTER' : 'VISA',
  bin: i % 3 === 0 ? '522222' : '411111', last4: String(1000 + i * 7), holder: HOLDERS[i % HOLDERS.length]!,
  status: i % 5 === 4 ? 'rejected' : 'success', resultCode: i % 5 === 4 ? '800.100.151' : '000.100.110',
  paymentType: i % 4 === 1 ? 'PA' : 'DB', merchantTransactionId: `order-${4711 + i}`, shortId: `${1234 + i}.5678.9012`,
}));

const [pglite] = testDatabases();

describe('the payments search page in Chromium', () => {
  const browser = useBrowser();
  let t: TestApp;
  let base: string;
  let session: ConsoleSession;
  withAppAndMerchant(() => pglite!.open(), {}, (app) => {
    t = app;
  });
  before(async () => {
    await insertEntity(t.storage, merchant, 'merchant', null);
    await insertEntity(t.storage, channel, 'channel', merchant);
    await insertPayments(t.storage, PAYMENTS);
    session = await signInAs(t, { role: 'finance', merchantId: merchant });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`at ${viewport.label} width: no serious or critical axe violation, nothing wider than the screen`, async () => {
      const page = await signedInPage(browser(), base, session, viewport);
      try {
        const response = await page.goto(`${base}/console/payments?amountTo=abc`);
        assert.equal(response?.status(), 400);
        assert.ok(await page.getByText('an amount like 12.50').isVisible(), 'a field with a message opens its group');
        await page.goto(`${base}/console/payments`);
        await expectAccessible(page, 'the payments');
        await expectNoSidewaysScroll(page, 'the payments');
        await page.getByRole('link', { name: /Amount/ }).click();
        assert.match(page.url(), /sort=amount/);
        await page.goto(`${base}/console/payments`);
        await saveConsoleScreenshot(page, 'payments', viewport);
      } finally {
        await page.context().close();
      }
    });
  }
});
