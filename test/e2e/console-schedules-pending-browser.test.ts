/**
 * The console's schedules and pending payments pages in Chromium (issue 32), at desktop width and
 * at 375 px: axe-core finds no serious or critical violation, nothing is wider than the screen,
 * every action works from the page (reschedule with a bad then a good expression, the test clock,
 * deschedule; the pending queue's resolve link to the payment page's form), a role without the
 * permission sees no form, and the screenshots in docs/images/console/ are taken here.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { createPgliteStorage } from '../../src/storage/pglite-storage.js';
import { migrate } from '../../src/storage/migrate.js';
import { addPendingChecks } from '../../src/storage/repositories/pending-checks.js';
import { signInAs, type ConsoleSession } from '../support/console.js';
import { cardPayment, postPayment, referencePayment } from '../support/payments.js';
import { drain, postSchedule, registrationWithInitialCit, scheduleWorker } from '../support/schedules.js';
import { json, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { useBrowser } from './support/browser.js';

const require = createRequire(import.meta.url);
const IMAGES = new URL('../../docs/images/console/', import.meta.url).pathname;
const WIDTHS = [['desktop', 1280], ['375', 375]] as const;

async function openAs(browserContext: () => Promise<BrowserContext>, base: string, session: ConsoleSession): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browserContext();
  const [name, value] = session.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: base }]);
  return { context, page: await context.newPage() };
}

/** axe-core's serious and critical findings, and whatever makes the page scroll sideways. */
async function check(page: Page, what: string): Promise<void> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, at: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  assert.deepEqual(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), [], what);
  // A wide table scrolls inside its own region (.table-wrap); nothing else may make the page scroll sideways.
  const wide = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !e.closest('.table-wrap')).map((e) => `${e.tagName}.${e.className}`).slice(0, 8));
  assert.deepEqual(wide, [], `${what}: nothing wider than the screen`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${what}: the page scrolls sideways by ${overflow} px`);
}

describe('the schedules and pending payments pages in Chromium', () => {
  const browser = useBrowser();
  let t: TestApp;
  let base: string;
  let merchantId: string;
  const schedules: string[] = [];
  const pending: string[] = [];
  withAppAndMerchant(async () => {
    const storage = await createPgliteStorage(undefined);
    await migrate(storage);
    return storage;
  }, { env: { LOG_LEVEL: 'warn' } }, (app, merchant) => {
    t = app;
    merchantId = merchant.entityId;
  });

  before(async () => {
    const shop = await t.createMerchant('Bakery Berlin');
    merchantId = shop.entityId;
    const registration = await registrationWithInitialCit(t, shop);
    for (const [fields, amount] of [
      [{ 'job.expression': '0 0 6 1 * ? *', 'job.timeZone': 'Europe/Berlin', 'job.name': 'Bread subscription' }, '19.90'],
      [{ 'job.expression': '0 30 8 ? * MON *', 'job.timeZone': 'UTC' }, '4.50'],
      [{ 'job.expression': '0 0 9 LW * ? *', 'job.timeZone': 'Europe/Paris' }, '120.00'],
    ] as const) schedules.push(json(await postSchedule(t, shop, registration, fields, amount))['id']);
    // A year of the first schedule's runs, played by its test clock.
    await t.app.inject({ method: 'POST', url: `/scheduling/v1/schedules/${schedules[0]}/advance`, headers: { authorization: `Bearer ${shop.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' }, payload: `entityId=${shop.entityId}&to=2027-04-15%2000%3A00%3A00` });
    await drain(scheduleWorker(t));
    for (const amount of ['9.98', '9.98']) {
      const db = json(await cardPayment(t, shop, 'DB', '30.00'));
      pending.push(json(await referencePayment(t, shop, db['id'], 'RF', amount))['id']);
    }
    pending.push(json(await postPayment(t, shop, { amount: '7.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'PAYPAL', shopperResultUrl: 'https://shop.example/back' }))['id']);
    // Twenty minutes on: the refunds have their status checks planned (as the sweep would), the shopper is still away.
    t.clock.advance(20 * 60_000);
    await addPendingChecks(t.storage, { createdBefore: t.clock.now(), now: new Date(t.clock.now().getTime() + 10 * 60_000), limit: 10 });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  const contextAt = (width: number) => () => browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true });

  for (const [label, width] of WIDTHS) {
    it(`schedules at ${label} width: the list and a schedule pass axe; reschedule, the test clock and deschedule work from the page`, async () => {
      const { context, page } = await openAs(contextAt(width), base, await signInAs(t, { role: 'merchant-admin', merchantId }));
      try {
        await page.goto(`${base}/console/schedules`);
        await check(page, 'the list');
        await page.screenshot({ path: `${IMAGES}schedules-list-${label}.png`, fullPage: true });
        await page.getByRole('link', { name: schedules[0] }).click();
        assert.ok(await page.getByRole('heading', { name: 'Next fire times' }).isVisible());
        assert.ok((await page.locator('table tbody tr').count()) >= 5, 'the runs the test clock played');
        await check(page, 'a schedule');
        await page.screenshot({ path: `${IMAGES}schedules-detail-${label}.png`, fullPage: true });

        await page.goto(`${base}/console/schedules/${schedules[label === 'desktop' ? 1 : 2]}`);
        await page.getByLabel('Job expression (Quartz, 6 or 7 fields)').fill('0 0 25 * * ? *');
        await page.getByRole('button', { name: 'Reschedule' }).click();
        assert.ok(await page.getByText(/hour field "25" must be/).first().isVisible(), 'the field\'s message');
        await check(page, 'a refused reschedule');
        await page.screenshot({ path: `${IMAGES}schedules-refused-${label}.png`, fullPage: true });
        await page.getByLabel('Job expression (Quartz, 6 or 7 fields)').fill('0 0 7 ? * MON-FRI *');
        await page.getByRole('button', { name: 'Reschedule' }).click();
        assert.ok(await page.getByText(/Rescheduled: this is the new schedule/).isVisible());
        await page.getByLabel('Advance to (UTC)').fill('2027-01-01 00:00:00');
        await page.getByRole('button', { name: 'Advance' }).click();
        assert.ok(await page.getByText(/The test clock moved/).isVisible());
        await page.getByRole('button', { name: 'Deschedule' }).click();
        assert.ok(await page.getByText(/^Descheduled/).isVisible());
        assert.ok(await page.getByText('An ended schedule cannot be changed.').isVisible());
      } finally {
        await context.close();
      }
    });
  }

  it('a read-only person sees the schedule but no form to change it', async () => {
    const { context, page } = await openAs(contextAt(1280), base, await signInAs(t, { role: 'read-only', merchantId }));
    try {
      await page.goto(`${base}/console/schedules/${schedules[0]}`);
      assert.ok(await page.getByText('Your role allows no change to this schedule.').isVisible());
      assert.equal(await page.getByRole('button', { name: 'Reschedule' }).count(), 0);
      const refused = await page.goto(`${base}/console/pending`);
      assert.equal(refused?.status(), 403, 'read-only is not among pending.view\'s roles');
    } finally {
      await context.close();
    }
  });

  for (const [label, width] of WIDTHS) {
    it(`pending payments at ${label} width: the queue passes axe; an operator resolves one from it`, async () => {
      const { context, page } = await openAs(contextAt(width), base, await signInAs(t, { role: 'operator-support' }));
      try {
        await page.goto(`${base}/console/pending`);
        await check(page, 'the queue');
        await page.screenshot({ path: `${IMAGES}pending-queue-${label}.png`, fullPage: true });
        const subject = pending[label === 'desktop' ? 0 : 1]!;
        await page.locator(`a[href="/console/payments/${subject}#actions"]`).click();
        await page.getByLabel('It did not (rejected)').check();
        await page.getByLabel('Reason (kept with the resolution)').fill('Acquirer ticket 4711: never arrived');
        await page.getByRole('button', { name: 'Resolve' }).click();
        assert.ok(await page.getByText(/Resolution .*rejected/).isVisible());
        await page.goto(`${base}/console/pending`);
        assert.equal(await page.locator(`a[href="/console/payments/${subject}"]`).count(), 0, 'resolved: out of the queue');
      } finally {
        await context.close();
      }
    });
  }
});
