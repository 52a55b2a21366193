/**
 * The operator's pages in headless Chromium (issue 32): each page at desktop width and at 375 px,
 * axe-core finding no serious or critical violation, the forms working as a person uses them
 * (retry a failed job, create a merchant, a refused setting shown next to its field, add a route
 * with its secret, rotate the vault's keys), and a merchant's person refused.
 * Screenshots: docs/images/console/operator-*.png (viewport-sized).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Role } from '../../src/domain/access/roles.js';
import type { CreatedEntity } from '../../src/operations/admin/create-entity.js';
import { MasterKeyRing, masterKeyFromHex, newRandomKey } from '../../src/domain/vault/index.js';
import { randomIds } from '../../src/domain/ids.js';
import { openVault } from '../../src/operations/registrations/open-vault.js';
import { recordHeartbeat } from '../../src/storage/repositories/worker-heartbeats.js';
import { PACKAGE_VERSION } from '../../src/observability/package-version.js';
import { testDatabases } from '../support/databases.js';
import { signInAs, type ConsoleSession } from '../support/console.js';
import { FORM_HEADERS, TEST_ADMIN_TOKEN, form, startTestApp, type TestApp } from '../support/test-app.js';
import { useBrowser } from './support/browser.js';

const IMAGES = new URL('../../docs/images/console/', import.meta.url).pathname;
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, '375': { width: 375, height: 812 } } as const;
const SECRET = 'acquirer-secret-Pw7';
const firstKeyHex = newRandomKey().toString('hex');

async function checkAccessibility(page: Page, name: string): Promise<void> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string; help: string }[] }> } }).axe.run();
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
  });
  assert.deepEqual(violations, [], `${name}: ${violations.join('; ')}`);
}

describe("the operator's pages in a real browser", { timeout: 600_000 }, () => {
  const browser = useBrowser();
  let t: TestApp;
  const sessions = new Map<Role, ConsoleSession>();
  let base: string;
  let merchant: CreatedEntity;

  before(async () => {
    mkdirSync(IMAGES, { recursive: true });
    const storage = await testDatabases()[0]!.open();
    t = await startTestApp(storage, { vault: openVault({ storage, clock: { now: () => new Date() }, ids: randomIds }, new MasterKeyRing(masterKeyFromHex(firstKeyHex))) });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    merchant = await t.createMerchant('Corner Shop');
    await t.createChannel(merchant.entityId, 'Web shop');
    await recordHeartbeat(t.storage, { workerId: 'worker-gw1-4211', host: 'gw1.internal', pid: 4211, version: PACKAGE_VERSION });
    for (const pid of [4188, 4190]) await recordHeartbeat(t.storage, { workerId: `gateway-gw1-${pid}`, host: 'gw1.internal', pid, role: 'gateway', version: PACKAGE_VERSION });
    const admin = (url: string, fields: Record<string, string>) => t.app.inject({ method: 'POST', url, headers: { ...FORM_HEADERS, authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: form(fields) });
    await admin('/admin/routes', { connector: 'simulator', entity: merchant.entityId, currency: 'EUR', 'credentials[apiKey]': SECRET });
    await admin('/admin/routes', { connector: 'external-test-platform', brand: 'MASTER', 'credentials[terminalId]': 'T-1', 'credentials[apiKey]': SECRET });
    const now = t.clock.now();
    const job = (kind: string, failures: number, failedAt: Date | null, error: string) =>
      t.storage.query('INSERT INTO jobs (kind, payload, run_at, failure_count, last_error, failed_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $3)', [kind, '{}', now, failures, error, failedAt]);
    // The routes' credentials were sealed under the first master key; a new one is configured since (VAULT_ACCEPTED_MASTER_KEYS keeps the old).
    const oldKey = masterKeyFromHex(firstKeyHex);
    Object.assign(t.app.gateway.payments, { vault: openVault({ storage: t.storage, clock: t.clock, ids: randomIds }, new MasterKeyRing(masterKeyFromHex(newRandomKey().toString('hex')), [oldKey])) });
    for (let i = 0; i < 4; i++) await job('deliver-webhook', 25, now, 'Error: connect ECONNREFUSED 10.0.0.7:443');
    await job('resolve-pending', 2, null, 'ConnectorTimeout: no answer from the acquirer within 30000 ms');
    await job('settle-day', 25, now, 'Error: settlement file for 2026-11-21 could not be written: disk full');
  });
  after(async () => {
    await t?.close();
    await t?.storage.close();
  });

  async function open(role: Role, width: keyof typeof VIEWPORTS): Promise<Page> {
    if (!sessions.has(role)) sessions.set(role, await signInAs(t, { role, merchantId: merchant.entityId }));
    const [name, value] = sessions.get(role)!.cookie.split('=') as [string, string];
    // bypassCSP lets the test inject axe-core; the pages themselves run under the console's CSP in every other test.
    const context = await browser().newContext({ viewport: VIEWPORTS[width], bypassCSP: true });
    await context.addCookies([{ name, value, url: base }]);
    return context.newPage();
  }

  async function capture(name: string, role: Role, reach: (page: Page) => Promise<void>): Promise<void> {
    for (const width of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) {
      const page = await open(role, width);
      await reach(page);
      await checkAccessibility(page, `${name} ${width}`);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width === '375') assert.ok(scrollWidth <= 375, `${name} fits 375 px (scrollWidth ${scrollWidth})`);
      assert.equal((await page.content()).includes(SECRET), false, `${name}: no route secret on the page`);
      await page.screenshot({ path: `${IMAGES}operator-${name}-${width}.png` });
      await page.context().close();
    }
  }

  it('the index and the system status', async () => {
    await capture('index', 'operator-read-only', async (page) => {
      await page.goto(`${base}/console/operator`);
      assert.equal(await page.locator('main a[href="/console/operator/vault"]').count(), 1);
    });
    await capture('status', 'operator-support', async (page) => {
      await page.goto(`${base}/console/operator/status`);
      await page.waitForSelector('text=gw1.internal');
      assert.match(await page.locator('main').innerText(), /Node\.js/);
      assert.equal(await page.locator('td[data-label="Role"]:has-text("gateway")').count(), 2);
    });
  });

  it('background jobs: counts, the failed ones, retry one and all of a kind', async () => {
    await capture('jobs', 'operator-support', async (page) => {
      await page.goto(`${base}/console/operator/jobs`);
      await page.locator('button:has-text("Retry now")').first().click();
      await page.waitForSelector('text=will run again now');
    });
    const page = await open('operator-admin', 'desktop');
    await page.goto(`${base}/console/operator/jobs`);
    await page.locator('tr', { hasText: 'deliver-webhook' }).first().locator('button:has-text("Retry all")').click();
    await page.waitForSelector('text=jobs will run again now');
    await page.context().close();
  });

  it('merchants and channels: the list, create one, a refused setting next to its field', async () => {
    await capture('entities', 'operator-admin', async (page) => {
      await page.goto(`${base}/console/operator/entities`);
      assert.match(await page.locator('table').innerText(), /Web shop/);
    });
    await capture('entity-created', 'operator-admin', async (page) => {
      await page.goto(`${base}/console/operator/entities`);
      await page.fill('#name', 'Harbour Books');
      await page.click('button:has-text("Create")');
      await page.waitForSelector('text=shown only once');
    });
    await capture('entity-settings', 'operator-admin', async (page) => {
      await page.goto(`${base}/console/operator/entities/${merchant.entityId}`);
      await page.fill('#requirement', 'above:fifty');
      await page.locator('form#three-d-secure button').click();
      await page.waitForSelector('#requirement-error');
    });
    await capture('entity-throttling', 'operator-admin', async (page) => {
      await page.goto(`${base}/console/operator/entities/${merchant.entityId}`);
      await page.fill('#maxRequests', '0');
      await page.locator('form#throttling button').click();
      await page.waitForSelector('#maxRequests-error');
      await page.locator('#throttling').scrollIntoViewIfNeeded();
    });
  });

  it('connectors and routes: the list, add one with its secret, the credentials form', async () => {
    const currencies = ['USD', 'GBP'];
    await capture('routes', 'operator-admin', async (page) => {
      await page.goto(`${base}/console/operator/routes`);
      await page.selectOption('#connector', 'simulator');
      await page.fill('#currency', currencies.shift()!);
      await page.fill('#brand', `VISA`);
      await page.fill('#credential-name-0', 'apiKey');
      await page.fill('#credential-value-0', SECRET);
      await page.click('button:has-text("Add the route")');
      await page.waitForSelector('text=The route was added');
    });
    await capture('route-credentials', 'operator-admin', async (page) => {
      await page.goto(`${base}/console/operator/routes`);
      await page.locator('a:has-text("Rotate credentials")').first().click();
      await page.waitForSelector('h1:has-text("Rotate")');
      assert.equal(await page.locator('input[type="password"]').count(), 3);
    });
  });

  it("the vault's keys and a rotation", async () => {
    await capture('vault-keys', 'operator-read-only', async (page) => {
      await page.goto(`${base}/console/operator/vault`);
      await page.waitForSelector('text=old: rotate');
    });
    await capture('vault', 'operator-admin', async (page) => {
      await page.goto(`${base}/console/operator/vault`);
      await page.click('button:has-text("Rotate to the current master key")');
      await page.waitForSelector('text=Rotation done');
    });
  });

  it("refuses a merchant's person every operator page", async () => {
    const page = await open('merchant-admin', 'desktop');
    for (const path of ['', '/status', '/jobs', '/entities', '/routes', '/vault']) {
      const response = await page.goto(`${base}/console/operator${path}`);
      assert.equal(response?.status(), 403, path);
    }
    assert.equal(await page.locator('nav a[href="/console/operator"]').count(), 0);
    await page.context().close();
  });
});
