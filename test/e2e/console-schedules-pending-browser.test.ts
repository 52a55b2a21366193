/**
 * The console's schedules and pending payments pages in Chromium (issue 32), at desktop width and
 * at 375 px: axe-core finds no serious or critical violation, nothing is wider than the screen,
 * every action works from the page (reschedule with a bad then a good expression, the test clock,
 * deschedule; the pending queue's resolve link to the payment page's form), a role without the
 * permission sees no form, and the screenshots in docs/images/console/ are taken here.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { addPendingChecks } from '../../src/storage/repositories/pending-checks.js';
import { testDatabases } from '../support/databases.js';
import { signInAs } from '../support/console.js';
import { cardPayment, postPayment, referencePayment } from '../support/payments.js';
import { drain, postSchedule, registrationWithInitialCit, scheduleWorker } from '../support/schedules.js';
import { json, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { DESKTOP, PHONE, expectAccessibleAndFits, saveConsoleScreenshot, signedInPage } from '../support/console-browser.js';
import { useBrowser } from './support/browser.js';


const [pglite] = testDatabases();

describe('the schedules and pending payments pages in Chromium', () => {
  const browser = useBrowser();
  let t: TestApp;
  let base: string;
  let merchantId: string;
  const schedules: string[] = [];
  const pending: string[] = [];
  withAppAndMerchant(() => pglite!.open(), { env: { LOG_LEVEL: 'warn' } }, (app, merchant) => {
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

  for (const viewport of [DESKTOP, PHONE]) {
    it(`schedules at ${viewport.label} width: the list and a schedule pass axe; reschedule, the test clock and deschedule work from the page`, async () => {
      const page = await signedInPage(browser(), base, await signInAs(t, { role: 'merchant-admin', merchantId }), viewport);
      try {
        await page.goto(`${base}/console/schedules`);
        await expectAccessibleAndFits(page, 'the list');
        await saveConsoleScreenshot(page, 'schedules-list', viewport, { fullPage: true });
        await page.getByRole('link', { name: schedules[0] }).click();
        assert.ok(await page.getByRole('heading', { name: 'Next fire times' }).isVisible());
        assert.ok((await page.locator('table tbody tr').count()) >= 5, 'the runs the test clock played');
        await expectAccessibleAndFits(page, 'a schedule');
        await saveConsoleScreenshot(page, 'schedules-detail', viewport, { fullPage: true });

        await page.goto(`${base}/console/schedules/${schedules[viewport === DESKTOP ? 1 : 2]}`);
        await page.getByLabel('Job expression (Quartz, 6 or 7 fields)').fill('0 0 25 * * ? *');
        await page.getByRole('button', { name: 'Reschedule' }).click();
        assert.ok(await page.getByText(/hour field "25" must be/).first().isVisible(), 'the field\'s message');
        await expectAccessibleAndFits(page, 'a refused reschedule');
        await saveConsoleScreenshot(page, 'schedules-refused', viewport, { fullPage: true });
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
        await page.context().close();
      }
    });
  }

  it('a read-only person sees the schedule but no form to change it', async () => {
    const page = await signedInPage(browser(), base, await signInAs(t, { role: 'read-only', merchantId }), DESKTOP);
    try {
      await page.goto(`${base}/console/schedules/${schedules[0]}`);
      assert.ok(await page.getByText('Your role allows no change to this schedule.').isVisible());
      assert.equal(await page.getByRole('button', { name: 'Reschedule' }).count(), 0);
      const refused = await page.goto(`${base}/console/pending`);
      assert.equal(refused?.status(), 403, 'read-only is not among pending.view\'s roles');
    } finally {
      await page.context().close();
    }
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`pending payments at ${viewport.label} width: the queue passes axe; an operator resolves one from it`, async () => {
      const page = await signedInPage(browser(), base, await signInAs(t, { role: 'operator-support' }), viewport);
      try {
        await page.goto(`${base}/console/pending`);
        await expectAccessibleAndFits(page, 'the queue');
        await saveConsoleScreenshot(page, 'pending-queue', viewport, { fullPage: true });
        const subject = pending[viewport === DESKTOP ? 0 : 1]!;
        await page.locator(`a[href="/console/payments/${subject}#actions"]`).click();
        await page.getByLabel('It did not (rejected)').check();
        await page.getByLabel('Reason (kept with the resolution)').fill('Acquirer ticket 4711: never arrived');
        await page.getByRole('button', { name: 'Resolve' }).click();
        assert.ok(await page.getByText(/Resolution .*rejected/).isVisible());
        await page.goto(`${base}/console/pending`);
        assert.equal(await page.locator(`a[href="/console/payments/${subject}"]`).count(), 0, 'resolved: out of the queue');
      } finally {
        await page.context().close();
      }
    });
  }
});
