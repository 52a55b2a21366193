import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { screenshot, useBrowser } from './support/browser.js';

/**
 * /docs in Chromium: Swagger UI, served by the gateway itself under the page's strict CSP, renders
 * every operation of /openapi.json, with no CSP violation, no script error and no request to
 * another host (the gateway has no internet access, and a reference page needs none).
 */
describe('/docs in a browser', { timeout: 120_000 }, () => {
  const browser = useBrowser();
  let t: TestApp;
  let origin = '';

  before(async () => {
    t = await startTestApp(await testDatabases()[0]!.open());
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await t?.close();
    await t?.storage.close();
  });

  it('renders every operation, under its CSP, from this origin alone', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(document.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => { if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) problems.push(`request to ${request.url()}`); });
    await page.goto(`${origin}/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    assert.equal(await page.locator('.opblock').count(), operations);
    for (const path of ['/v1/payments', '/v1/threeDSecure', '/v1/risk', '/admin/webhooks', '/health/ready', '/v1/redirects/{id}/return']) {
      assert.ok(await page.locator(`.opblock-summary-path[data-path="${path}"]`).count() > 0, path);
    }
    // One operation opened: its example request and answer are shown.
    await page.locator('#operations-Payments-payment .opblock-summary').click();
    await page.waitForSelector('#operations-Payments-payment .responses-wrapper', { timeout: 10_000 });
    const opened = await page.locator('#operations-Payments-payment').innerText();
    assert.match(opened, /Example request\s+POST \/v1\/payments HTTP\/1\.1/);
    assert.match(opened, /"code": "000\.100\.110"/);
    await screenshot(page, 'api-docs');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
