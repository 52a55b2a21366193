/**
 * The people pages in Chromium (Debian's, through playwright-core): sign-in, setting up the
 * authenticator, people and account, at desktop and 375 px; axe-core finds no serious or critical
 * violation; screenshots go to docs/images/console/ (docs/console.md shows them).
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { totpCode } from '../../src/domain/people/totp.js';
import { setMerchantSecondFactor } from '../../src/operations/people/merchant-security.js';
import { createConsolePerson, peopleDeps } from '../support/console.js';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { useBrowser } from './support/browser.js';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const IMAGES = new URL('../../docs/images/console/', import.meta.url).pathname;
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: '375', width: 375, height: 740 },
] as const;

/** axe-core's serious and critical findings on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => (await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe.run()).violations);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
}

async function check(page: Page, name: string, viewport: (typeof VIEWPORTS)[number]): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `${name} at ${viewport.name}`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= viewport.width, `${name} fits ${viewport.width} px (is ${width})`);
  await page.screenshot({ path: `${IMAGES}${name}-${viewport.name}.png` });
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
    it(`signs in, sets up the authenticator, opens people and account (${viewport.name})`, async () => {
      const merchant = await t.createMerchant('Paper & Ink Ltd');
      await setMerchantSecondFactor(peopleDeps(t), { kind: 'system', reason: 'test' }, merchant.entityId, true);
      const admin = await createConsolePerson(t, { role: 'merchant-admin', merchantId: merchant.entityId, email: `admin-${viewport.name}@paper-ink.example` });
      await createConsolePerson(t, { role: 'finance', merchantId: merchant.entityId, email: `finance-${viewport.name}@paper-ink.example` });
      await createConsolePerson(t, { role: 'developer', merchantId: merchant.entityId, email: `dev-${viewport.name}@paper-ink.example`, secondFactor: true });
      const context = await browser().newContext({ viewport: { width: viewport.width, height: viewport.height }, bypassCSP: true });
      const page = await context.newPage();
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
        await context.close();
      }
    });
  }
});
