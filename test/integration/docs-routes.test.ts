import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('API reference routes', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(await testDatabases()[0]!.open());
  });
  after(async () => {
    await t.close();
    await t.storage.close();
  });

  it('GET /openapi.json serves the OpenAPI 3.1 document generated from the catalogue', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(response.statusCode, 200);
    const document = response.json();
    assert.match(document.openapi, /^3\.1/);
    assert.ok(document.paths['/v1/payments']);
  });

  it('GET /docs serves the Swagger UI page under a CSP that allows this origin alone, and its files', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /text\/html/);
    assert.match(String(response.headers['content-security-policy']), /default-src 'none'; script-src 'self'; style-src 'self'/);
    assert.doesNotMatch(response.body, /<script>|<script [^>]*src="http/);
    for (const [file, type] of [['swagger-ui-bundle.js', /javascript/], ['swagger-ui.css', /text\/css/], ['init.js', /javascript/]] as const) {
      const asset = await t.app.inject({ method: 'GET', url: `/docs/assets/${file}` });
      assert.equal(asset.statusCode, 200, file);
      assert.match(String(asset.headers['content-type']), type);
      assert.ok(response.body.includes(`/docs/assets/${file}`), file);
    }
    const unknown = await t.app.inject({ method: 'GET', url: '/docs/assets/index.html' });
    assert.equal(unknown.statusCode, 404);
  });

  it('GET /openapi.json is docs/openapi.json, with the admin API, 3-D Secure, risk and health in it', async () => {
    const served = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.deepEqual(served, JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')));
    for (const path of ['/v1/threeDSecure', '/v1/risk', '/v1/paymentWidgets.js', '/v1/redirects/{id}/return', '/health/ready', '/admin/webhooks', '/admin/entities/{entityId}/risk/rules']) {
      assert.ok(served.paths[path], path);
    }
    assert.deepEqual(served.paths['/admin/webhooks'].post.security, [{ adminToken: [] }]);
  });
});
