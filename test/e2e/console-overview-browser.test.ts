/**
 * The overview in Chromium at desktop width and at 375 px: the charts are drawn under the
 * console's own CSP (no violation reported), axe-core finds no serious or critical violation,
 * nothing is wider than the screen, and the screenshots in docs/images/console/ are taken from it.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { insertTransactions } from '../../src/storage/repositories/transactions.js';
import { testDatabases } from '../support/databases.js';
import { signInAs, type ConsoleSession } from '../support/console.js';
import { hexId, insertEntity, storedPayment, type SeedPayment } from '../support/payment-search.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { DESKTOP, PHONE, expectAccessible, expectNoSidewaysScroll, saveConsoleScreenshot, signedInPage } from '../support/console-browser.js';
import { useBrowser } from './support/browser.js';

const MERCHANTS = [['Big retailer', 3], ['Travel agency', 2], ['Small shop', 1]] as const;
const DECLINES = ['800.100.151', '800.100.100', '100.400.080', '100.100.303', '900.100.300', '000.400.108'];

/** A month of payments over three merchants, with every kind of figure the page shows. */
function month(): { payments: SeedPayment[]; frictionless: Set<string>; challenged: Set<string> } {
  const payments: SeedPayment[] = [];
  const frictionless = new Set<string>();
  const challenged = new Set<string>();
  for (let i = 0; i < 240; i += 1) {
    const m = i % 6 < 3 ? 0 : i % 6 < 5 ? 1 : 2;
    const declined = i % 7 === 3 || (m === 2 && i % 3 === 0);
    const name = `overview-${i}`;
    const paymentType = i % 17 === 5 ? 'RF' : i % 61 === 7 ? 'CB' : i % 3 === 1 ? 'PA' : 'DB';
    payments.push({
      name, entityId: hexId(`${MERCHANTS[m]![0]} channel ${i % MERCHANTS[m]![1]}`), createdAt: new Date(Date.UTC(2026, 10, 22, 9) - (i % 30) * 86_400_000 - i * 60_000),
      amountMinor: BigInt(1500 + ((i * 7919) % 40000)), currency: ['EUR', 'EUR', 'EUR', 'USD', 'GBP'][i % 5]!, brand: ['VISA', 'MASTER', 'VISA', 'AMEX'][i % 4]!,
      connectorId: i % 5 === 2 ? 'iso8583' : 'simulator', paymentType,
      status: i % 53 === 11 ? 'pending' : declined && paymentType !== 'RF' && paymentType !== 'CB' ? 'rejected' : 'success',
      resultCode: i % 53 === 11 ? '000.200.000' : declined ? DECLINES[i % DECLINES.length]! : '000.100.110',
    });
    if (i % 4 === 0) frictionless.add(hexId(name));
    else if (i % 9 === 1) challenged.add(hexId(name));
  }
  return { payments, frictionless, challenged };
}

async function seed(t: TestApp): Promise<void> {
  for (const [name, channels] of MERCHANTS) {
    await t.storage.query(`INSERT INTO entities (id, kind, name, merchant_id, created_at) VALUES ($1, 'merchant', $2, NULL, now())`, [hexId(name), name]);
    for (let c = 0; c < channels; c += 1) {
      await t.storage.query(`INSERT INTO entities (id, kind, name, merchant_id, created_at) VALUES ($1, 'channel', $2, $3, now())`, [hexId(`${name} channel ${c}`), `${name} web ${c + 1}`, hexId(name)]);
    }
  }
  const { payments, frictionless, challenged } = month();
  await insertTransactions(t.storage, payments.map((p) => {
    const stored = storedPayment(p);
    const authenticated = frictionless.has(stored.id) || challenged.has(stored.id);
    return authenticated ? { ...stored, response: { ...stored.response, threeDSecure: { eci: '05', authenticationStatus: 'Y' } } } : stored;
  }));
  for (const id of challenged) {
    await t.storage.query(
      `INSERT INTO shopper_redirects (id, entity_id, transaction_id, purpose, state, shopper_result_url, created_at, expires_at)
       SELECT md5(id), entity_id, id, 'challenge', 'completed', 'https://shop.example.com/return', created_at, created_at + interval '10 minutes' FROM transactions WHERE id = $1`, [id]);
  }
}

const [pglite] = testDatabases();

describe('the overview page in Chromium', () => {
  const browser = useBrowser();
  let t: TestApp;
  let base: string;
  let operator: ConsoleSession;
  withAppAndMerchant(() => pglite!.open(), {}, (app) => {
    t = app;
  });
  before(async () => {
    await seed(t);
    operator = await signInAs(t, { role: 'operator-read-only' });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  it('draws every chart under the console CSP, from the page\'s own assets', async () => {
    const page = await signedInPage(browser(), base, operator, DESKTOP, { underConsoleCsp: true });
    try {
      const problems: string[] = [];
      page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${base}/console/overview?period=30d`);
      const drawn = await page.evaluate(() => {
        const Chart = (globalThis as unknown as { Chart?: { getChart(canvas: Element): unknown } }).Chart;
        return [...document.querySelectorAll('canvas[data-chart]')].map((canvas) => Boolean(Chart?.getChart(canvas)));
      });
      assert.ok(drawn.length >= 7, `charts on the page: ${drawn.length}`);
      assert.deepEqual(drawn, drawn.map(() => true), 'every canvas has its chart');
      assert.deepEqual(problems, [], 'no CSP violation or script error');
    } finally {
      await page.context().close();
    }
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`at ${viewport.label} width: no serious or critical axe violation, nothing wider than the screen`, async () => {
      const page = await signedInPage(browser(), base, operator, viewport);
      try {
        const broken = await page.goto(`${base}/console/overview?period=custom&from=2026-11-20`);
        assert.equal(broken?.status(), 400);
        assert.ok(await page.getByText('a date like 2026-11-27').isVisible());
        await page.goto(`${base}/console/overview`);
        await page.getByLabel('Period').selectOption('30d');
        await page.getByRole('button', { name: 'Show' }).click();
        assert.match(page.url(), /period=30d/);
        await page.waitForFunction(() => document.querySelectorAll('canvas[data-chart]').length > 0);
        await expectAccessible(page, 'the overview');
        await expectNoSidewaysScroll(page, 'the overview');
        // The whole page at desktop width; at 375 px the first screens (a full page would be 5,000 px tall).
        await saveConsoleScreenshot(page, 'overview', viewport, { fullPage: true, ...(viewport.width > 375 ? {} : { clip: { x: 0, y: 0, width: viewport.width, height: 1500 } }) });
      } finally {
        await page.context().close();
      }
    });
  }
});
