/**
 * The audit log page in Chromium at desktop width and at 375 px: axe-core finds no serious or
 * critical violation, nothing is wider than the screen, an operator admin verifies the chain from
 * the page, a merchant's admin sees their merchant's entries only; the screenshots in
 * docs/images/console/ are taken from it.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { before, describe, it } from 'node:test';
import { createPgliteStorage } from '../../src/storage/pglite-storage.js';
import { migrate } from '../../src/storage/migrate.js';
import { signInAs, type ConsoleSession } from '../support/console.js';
import { form, FORM_HEADERS, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import type { CreatedEntity } from '../../src/operations/admin/create-entity.js';
import { useBrowser } from './support/browser.js';

const require = createRequire(import.meta.url);
const IMAGES = new URL('../../docs/images/console/', import.meta.url).pathname;
const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...FORM_HEADERS };

describe('the audit log page in Chromium', () => {
  const browser = useBrowser();
  let t: TestApp;
  let merchant: CreatedEntity;
  let base: string;
  let operator: ConsoleSession;
  let merchantAdmin: ConsoleSession;
  let otherId: string;
  withAppAndMerchant(async () => {
    const storage = await createPgliteStorage(undefined);
    await migrate(storage);
    return storage;
  }, {}, (app, created) => {
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

  async function open(session: ConsoleSession, width: number) {
    // bypassCSP: only so that axe-core can be injected; the page itself runs under the console's CSP.
    const context = await browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    const [name, value] = session.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: base }]);
    return context;
  }

  for (const [label, width] of [['desktop', 1280], ['375', 375]] as const) {
    it(`at ${label} width: no serious or critical axe violation, nothing wider than the screen, the chain verified from the page`, async () => {
      const context = await open(operator, width);
      try {
        const page = await context.newPage();
        assert.equal((await page.goto(`${base}/console/audit`))?.status(), 200);
        await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
        const violations = await page.evaluate(async () => {
          const result = await (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> } }).axe.run();
          return result.violations.map((v) => ({ id: v.id, impact: v.impact }));
        });
        assert.deepEqual(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), []);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
        await page.getByRole('button', { name: 'Verify the chain' }).click();
        assert.ok(await page.getByText(/The chain holds: \d+ entries verified/).isVisible());
        await page.screenshot({ path: `${IMAGES}audit-${label}.png` });
      } finally {
        await context.close();
      }
    });
  }

  it("shows a merchant's admin their merchant's entries only, without the verify button", async () => {
    const context = await open(merchantAdmin, 1280);
    try {
      const page = await context.newPage();
      await page.goto(`${base}/console/audit`);
      const rows = await page.locator('tbody tr').count();
      assert.ok(rows >= 3, "the merchant's two settings and its token at least");
      assert.equal(await page.getByText(otherId).count(), 0, "the other merchant's change is not there");
      assert.ok(await page.getByRole('cell', { name: 'entities.connector-details' }).first().isVisible());
      assert.equal(await page.getByRole('button', { name: 'Verify the chain' }).count(), 0);
      assert.equal((await page.goto(`${base}/console/audit?from=yesterday`))?.status(), 400);
      assert.ok(await page.getByText('Expected a day as YYYY-MM-DD').isVisible());
    } finally {
      await context.close();
    }
  });
});
