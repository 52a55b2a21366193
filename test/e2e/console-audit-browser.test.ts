/**
 * The audit log page in Chromium at desktop width and at 375 px: axe-core finds no serious or
 * critical violation, nothing is wider than the screen, an operator admin verifies the chain from
 * the page, a merchant's admin sees their merchant's entries only; the screenshots in
 * docs/images/console/ are taken from it.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { signInAs, type ConsoleSession } from '../support/console.js';
import { form, FORM_HEADERS, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import type { CreatedEntity } from '../../src/operations/admin/create-entity.js';
import { DESKTOP, PHONE, expectAccessible, expectNoSidewaysScroll, saveConsoleScreenshot, signedInPage } from '../support/console-browser.js';
import { useBrowser } from './support/browser.js';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...FORM_HEADERS };

const [pglite] = testDatabases();

describe('the audit log page in Chromium', () => {
  const browser = useBrowser();
  let t: TestApp;
  let merchant: CreatedEntity;
  let base: string;
  let operator: ConsoleSession;
  let merchantAdmin: ConsoleSession;
  let otherId: string;
  withAppAndMerchant(() => pglite!.open(), {}, (app, created) => {
    t = app;
    merchant = created;
  });
  before(async () => {
    const other = await t.createMerchant('Another shop');
    otherId = other.entityId;
    for (const [entity, enabled] of [[merchant.entityId, 'false'], [other.entityId, 'false'], [merchant.entityId, 'true']] as const) {
      await t.app.inject({ method: 'PUT', url: `/admin/entities/${entity}/connector-details`, headers: ADMIN, payload: form({ enabled }) });
    }
    await t.app.inject({ method: 'POST', url: '/admin/tokens', headers: ADMIN, payload: form({ entity: merchant.entityId }) });
    operator = await signInAs(t, { role: 'operator-admin' });
    merchantAdmin = await signInAs(t, { role: 'merchant-admin', merchantId: merchant.entityId });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`at ${viewport.label} width: no serious or critical axe violation, nothing wider than the screen, the chain verified from the page`, async () => {
      const page = await signedInPage(browser(), base, operator, viewport);
      try {
        assert.equal((await page.goto(`${base}/console/audit`))?.status(), 200);
        await expectAccessible(page, 'the audit log');
        await expectNoSidewaysScroll(page, 'the audit log');
        await page.getByRole('button', { name: 'Verify the chain' }).click();
        assert.ok(await page.getByText(/The chain holds: \d+ entries verified/).isVisible());
        await saveConsoleScreenshot(page, 'audit', viewport);
      } finally {
        await page.context().close();
      }
    });
  }

  it("shows a merchant's admin their merchant's entries only, without the verify button", async () => {
    const page = await signedInPage(browser(), base, merchantAdmin, DESKTOP);
    try {
      await page.goto(`${base}/console/audit`);
      const rows = await page.locator('tbody tr').count();
      assert.ok(rows >= 3, "the merchant's two settings and its token at least");
      assert.equal(await page.getByText(otherId).count(), 0, "the other merchant's change is not there");
      assert.ok(await page.getByRole('cell', { name: 'entities.connector-details' }).first().isVisible());
      assert.equal(await page.getByRole('button', { name: 'Verify the chain' }).count(), 0);
      assert.equal((await page.goto(`${base}/console/audit?from=yesterday`))?.status(), 400);
      assert.ok(await page.getByText('Expected a day as YYYY-MM-DD').isVisible());
    } finally {
      await page.context().close();
    }
  });
});
