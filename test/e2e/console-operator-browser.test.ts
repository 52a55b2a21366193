/**
 * The operator's pages in headless Chromium (issue 32): each page at desktop width and at 375 px,
 * axe-core finding no serious or critical violation, the forms working as a person uses them
 * (retry a failed job, create a merchant, a refused setting shown next to its field, add a route
 * with its secret, rotate the vault's keys), and a merchant's person refused.
 * Screenshots: docs/images/console/operator-*.png (viewport-sized).
 */
import assert from 'node:assert/strict';
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
import { DESKTOP, PHONE, expectAccessible, expectNoSidewaysScroll, saveConsoleScreenshot, signedInPage, type Viewport } from '../support/console-browser.js';
import { useBrowser } from './support/browser.js';

/** Desktop, and the phone 812 px tall: the size of these pages' screenshots in the docs. */
const VIEWPORTS: readonly Viewport[] = [DESKTOP, { ...PHONE, height: 812 }];
const SECRET = 'acquirer-secret-Pw7';
const firstKeyHex = newRandomKey().toString('hex');

describe("the operator's pages in a real browser", { timeout: 600_000 }, () => {
  const browser = useBrowser();
  let t: TestApp;
  const sessions = new Map<Role, ConsoleSession>();
  let base: string;
  let merchant: CreatedEntity;

  before(async () => {
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

  async function open(role: Role, viewport: Viewport): Promise<Page> {
    if (!sessions.has(role)) sessions.set(role, await signInAs(t, { role, merchantId: merchant.entityId }));
    return signedInPage(browser(), base, sessions.get(role)!, viewport);
  }

  async function capture(name: string, role: Role, reach: (page: Page) => Promise<void>): Promise<void> {
    for (const viewport of VIEWPORTS) {
      const page = await open(role, viewport);
      await reach(page);
      await expectAccessible(page, `${name} ${viewport.label}`);
      if (viewport.label === '375') await expectNoSidewaysScroll(page, `${name} at 375 px`);
      assert.equal((await page.content()).includes(SECRET), false, `${name}: no route secret on the page`);
      await saveConsoleScreenshot(page, `operator-${name}`, viewport);
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
    const page = await open('operator-admin', DESKTOP);
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
    const page = await open('merchant-admin', DESKTOP);
    for (const path of ['', '/status', '/jobs', '/entities', '/routes', '/vault']) {
      const response = await page.goto(`${base}/console/operator${path}`);
      assert.equal(response?.status(), 403, path);
    }
    assert.equal(await page.locator('nav a[href="/console/operator"]').count(), 0);
    await page.context().close();
  });
});
