/**
 * The people pages in Chromium (Debian's, through playwright-core): sign-in, setting up the
 * authenticator, people and account, at desktop and 375 px; axe-core finds no serious or critical
 * violation; screenshots go to docs/images/console/ (docs/console.md shows them).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { totpCode } from '../../src/domain/people/totp.js';
import { setMerchantSecondFactor } from '../../src/operations/people/merchant-security.js';
import { createConsolePerson, peopleDeps } from '../support/console.js';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { DESKTOP, PHONE, expectAccessible, expectNoSidewaysScroll, saveConsoleScreenshot, visitorPage, type Viewport } from '../support/console-browser.js';
import { useBrowser } from './support/browser.js';

/** Desktop 800 px tall and the phone 740 px tall: the size of these pages' screenshots in the docs. */
const VIEWPORTS: readonly Viewport[] = [{ ...DESKTOP, height: 800 }, { ...PHONE, height: 740 }];

/** No serious axe-core finding, nothing wider than the screen, and the screenshot. */
async function check(page: Page, name: string, viewport: Viewport): Promise<void> {
  await expectAccessible(page, `${name} at ${viewport.label}`);
  await expectNoSidewaysScroll(page, `${name} at ${viewport.label}`);
  await saveConsoleScreenshot(page, name, viewport);
}

const [pglite] = testDatabases();

describe('console people pages in Chromium', () => {
  const browser = useBrowser();
  let t: TestApp;
  let base = '';
  before(async () => {
    t = await startTestApp(await pglite!.open());
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await t.close();
    await t.storage.close();
  });

  for (const viewport of VIEWPORTS) {
    it(`signs in, sets up the authenticator, opens people and account (${viewport.label})`, async () => {
      const merchant = await t.createMerchant('Paper & Ink Ltd');
      await setMerchantSecondFactor(peopleDeps(t), { kind: 'system', reason: 'test' }, merchant.entityId, true);
      const admin = await createConsolePerson(t, { role: 'merchant-admin', merchantId: merchant.entityId, email: `admin-${viewport.label}@paper-ink.example` });
      await createConsolePerson(t, { role: 'finance', merchantId: merchant.entityId, email: `finance-${viewport.label}@paper-ink.example` });
      await createConsolePerson(t, { role: 'developer', merchantId: merchant.entityId, email: `dev-${viewport.label}@paper-ink.example`, secondFactor: true });
      const page = await visitorPage(browser(), viewport);
      try {
        await page.goto(`${base}/console/people`);
        assert.match(page.url(), /\/console\/sign-in\?next=/);
        await check(page, 'sign-in', viewport);
        await page.getByLabel('E-mail address').fill(admin.email);
        await page.getByLabel('Password').fill(admin.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(/\/console\/sign-in\/enroll/);
        await check(page, 'enroll', viewport);
        const secret = (await page.locator('code.secret').innerText()).replace(/\s/g, '');
        await page.getByLabel('The six-digit code the app shows now').fill(totpCode(secret, t.clock.now().getTime()));
        await page.getByRole('button', { name: 'Confirm' }).click();
        assert.equal(await page.locator('ul.recovery-codes li').count(), 10);
        await page.getByRole('link', { name: /continue/ }).click();
        await page.waitForURL(/\/console\/people$/);
        await check(page, 'people', viewport);
        await page.getByRole('link', { name: admin.email }).first().click();
        await page.waitForURL(/\/console\/account$/);
        await check(page, 'account', viewport);
      } finally {
        await page.context().close();
      }
    });
  }
});
