/**
 * The console's risk pages in Chromium at desktop width and at 375 px (issue 32): the manual
 * review queue (accept, reject), the lists (a card typed in a field that never echoes it, a CSV
 * refused by line), the rule sets (validation by place, versions, restore); axe-core finds no
 * serious or critical violation, nothing is wider than the screen, and the screenshots in
 * docs/images/console/risk-*.png are taken from them. A merchant admin is refused the rule sets.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { CreatedEntity } from '../../src/operations/admin/create-entity.js';
import { testDatabases } from '../support/databases.js';
import { signInAs, type ConsoleSession } from '../support/console.js';
import { cardPayment } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { DESKTOP, PHONE, expectAccessible, expectNoSidewaysScroll, saveConsoleScreenshot, signedInPage } from '../support/console-browser.js';
import { useBrowser } from './support/browser.js';

const CARD = '4012888888881881';

const [pglite] = testDatabases();

describe('the risk pages in Chromium', () => {
  const browser = useBrowser();
  let t: TestApp;
  let merchant: CreatedEntity;
  let base: string;
  let operator: ConsoleSession;
  let merchantAdmin: ConsoleSession;
  const admin = (method: 'PUT' | 'POST', url: string, fields: Record<string, string>) =>
    t.app.inject({ method, url, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form(fields) });
  withAppAndMerchant(() => pglite!.open(), {}, (app, created) => {
    t = app;
    merchant = created;
  });
  before(async () => {
    await t.createChannel(merchant.entityId, 'Web shop');
    const lists = `/admin/entities/${merchant.entityId}/risk/lists/black`;
    await admin('POST', lists, { kind: 'email', value: 'fraud@example.com', reason: 'chargebacks', by: 'ops@example.com' });
    await admin('POST', lists, { kind: 'ip', value: '203.0.113.9', reason: 'card testing', by: 'ops@example.com' });
    await admin('POST', lists, { kind: 'country', value: 'KP', by: 'ops@example.com' });
    const rules = `/admin/entities/${merchant.entityId}/risk/rules`;
    await admin('PUT', rules, { rules: JSON.stringify({ reviewAtScore: 500, rejectAtScore: 2000 }), by: 'ops@example.com' });
    await admin('PUT', rules, { rules: JSON.stringify({ reviewAtScore: 500, rejectAtScore: 2000, velocity: [{ key: 'card', measure: 'attempts', windowMinutes: 10, max: 5, action: 'reject' }] }), by: 'ops@example.com' });
    for (const [amount, hoursLater] of [['555.55', 5], ['555.55', 2], ['555.55', 1]] as const) {
      assert.equal(json(await cardPayment(t, merchant, 'PA', amount, { 'card.number': CARD })).result.code, '000.400.000');
      t.clock.advance(hoursLater * 3_600_000);
    }
    operator = await signInAs(t, { role: 'operator-admin' });
    merchantAdmin = await signInAs(t, { role: 'merchant-admin', merchantId: merchant.entityId });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  it('decides reviews: accept with a reason, reject and reverse; the queue shows age, score and rules', async () => {
    const page = await signedInPage(browser(), base, operator, DESKTOP);
    try {
      await page.goto(`${base}/console/risk`);
      assert.match(page.url(), /\/console\/risk\/reviews$/);
      assert.equal(await page.locator('tbody tr').count(), 3);
      assert.ok(await page.getByText('8 h 0 min').isVisible(), 'the oldest has waited 8 hours');
      const first = page.locator('tbody tr').first();
      await first.getByRole('button', { name: 'Accept' }).click();
      assert.ok(await page.locator('#main').getByText('Please fill', { exact: false }).count() === 0);
      await first.getByLabel('Reason').fill('customer confirmed by phone');
      await first.getByRole('button', { name: 'Accept' }).click();
      assert.ok(await page.getByText('Accepted: the payment stands.').isVisible());
      await page.locator('tbody tr').first().getByLabel('Reason').fill('card testing pattern');
      await page.locator('tbody tr').first().getByRole('button', { name: 'Reject and reverse' }).click();
      assert.ok(await page.getByText('Rejected: the payment was reversed.').isVisible());
      assert.ok(await page.getByRole('link', { name: 'reversal' }).isVisible());
    } finally {
      await page.context().close();
    }
  });

  it('adds a card through a field that never echoes it, and refuses a CSV line by line', async () => {
    const page = await signedInPage(browser(), base, merchantAdmin, DESKTOP);
    try {
      await page.goto(`${base}/console/risk/lists`);
      await page.getByLabel('Number').fill('4012 8888 8888 1882');
      await page.locator('form:has(#card-number)').getByRole('button', { name: 'Add' }).click();
      assert.ok(await page.getByText('with a valid check digit').isVisible());
      assert.equal(await page.getByLabel('Number').inputValue(), '', 'the refused number is not put back');
      assert.doesNotMatch(await page.content(), /1882/);
      await page.getByLabel('Number').fill(CARD);
      await page.locator('#card-reason').fill('stolen');
      await page.locator('form:has(#card-number)').getByRole('button', { name: 'Add' }).click();
      assert.ok(await page.getByText('The entry was added').isVisible());
      assert.ok(await page.getByText('401288…1881').isVisible());
      assert.doesNotMatch(await page.content(), new RegExp(CARD));
      await page.getByLabel('Entries').fill('email,vip@shop.example\nphone,123\n');
      await page.getByRole('button', { name: 'Import' }).click();
      assert.ok(await page.getByText('line 2: kind must be one of').isVisible());
      const refused = await page.goto(`${base}/console/risk/rules`);
      assert.equal(refused?.status(), 403, 'a merchant admin may not open the rule sets');
    } finally {
      await page.context().close();
    }
  });

  it('names each rule set problem by its place and restores an earlier version', async () => {
    const page = await signedInPage(browser(), base, operator, DESKTOP);
    try {
      await page.goto(`${base}/console/risk/rules?merchant=${merchant.entityId}`);
      await page.getByLabel('Rules (JSON)').fill('{"reviewAtScore": "high", "velocity": [{"key": "card", "measure": "attempts", "windowMinutes": 0, "max": 5, "action": "reject"}]}');
      await page.getByRole('button', { name: 'Save as a new version' }).click();
      assert.ok(await page.locator('#rules-error code', { hasText: 'velocity[0].windowMinutes' }).isVisible());
      await page.getByRole('button', { name: 'Restore version 1' }).click();
      assert.ok(await page.getByText('Version 1 was restored as a new version.').isVisible());
      assert.ok(await page.getByText('Version 3, saved by').isVisible());
    } finally {
      await page.context().close();
    }
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`at ${viewport.label} width: no serious or critical axe violation, nothing wider than the screen; screenshots`, async () => {
      const page = await signedInPage(browser(), base, operator, viewport);
      try {
        for (const [name, path] of [['reviews', '/console/risk/reviews'], ['lists', `/console/risk/lists?merchant=${merchant.entityId}`], ['rules', `/console/risk/rules?merchant=${merchant.entityId}`]] as const) {
          await page.goto(`${base}${path}`);
          if (name === 'rules') await page.locator('details').nth(1).evaluate((d) => d.setAttribute('open', ''));
          await expectAccessible(page, name);
          await expectNoSidewaysScroll(page, page.url());
          await saveConsoleScreenshot(page, `risk-${name}`, viewport, { fullPage: true });
        }
      } finally {
        await page.context().close();
      }
    });
  }
});
