/**
 * The payments search page in Chromium at desktop width and at 375 px: axe-core finds no serious
 * or critical violation, the table scrolls inside its region rather than the page, and the
 * screenshots in docs/images/console/ are taken from it.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { before, describe, it } from 'node:test';
import { createPgliteStorage } from '../../src/storage/pglite-storage.js';
import { migrate } from '../../src/storage/migrate.js';
import { signInAs, type ConsoleSession } from '../support/console.js';
import { hexId, insertEntity, insertPayments, type SeedPayment } from '../support/payment-search.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { useBrowser } from './support/browser.js';

const require = createRequire(import.meta.url);
const IMAGES = new URL('../../docs/images/console/', import.meta.url).pathname;
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

describe('the payments search page in Chromium', () => {
  const browser = useBrowser();
  let t: TestApp;
  let base: string;
  let session: ConsoleSession;
  withAppAndMerchant(async () => {
    const storage = await createPgliteStorage(undefined);
    await migrate(storage);
    return storage;
  }, {}, (app) => {
    t = app;
  });
  before(async () => {
    await insertEntity(t.storage, merchant, 'merchant', null);
    await insertEntity(t.storage, channel, 'channel', merchant);
    await insertPayments(t.storage, PAYMENTS);
    session = await signInAs(t, { role: 'finance', merchantId: merchant });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  for (const [label, width] of [['desktop', 1280], ['375', 375]] as const) {
    it(`at ${label} width: no serious or critical axe violation, nothing wider than the screen`, async () => {
      // bypassCSP: only so that axe-core can be injected; the page itself runs under the console's CSP in production.
      const context = await browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const [name, value] = session.cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: base }]);
      try {
        const page = await context.newPage();
        const response = await page.goto(`${base}/console/payments?amountTo=abc`);
        assert.equal(response?.status(), 400);
        assert.ok(await page.getByText('an amount like 12.50').isVisible(), 'a field with a message opens its group');
        await page.goto(`${base}/console/payments`);
        await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
        const violations = await page.evaluate(async () => {
          const result = await (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> } }).axe.run();
          return result.violations.map((v) => ({ id: v.id, impact: v.impact }));
        });
        assert.deepEqual(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), []);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        const wide = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !e.closest('.table-wrap tbody, .table-wrap thead')).map((e) => `${e.tagName}.${e.className}#${e.id}:${Math.round(e.getBoundingClientRect().right)}`).slice(0, 8));
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px: ${wide.join(', ')}`);
        await page.getByRole('link', { name: /Amount/ }).click();
        assert.match(page.url(), /sort=amount/);
        await page.goto(`${base}/console/payments`);
        await page.screenshot({ path: `${IMAGES}payments-${label}.png` });
      } finally {
        await context.close();
      }
    });
  }
});
