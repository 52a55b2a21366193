import assert from 'node:assert/strict';
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

  it('GET /docs serves a readable page without external scripts', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /text\/html/);
    assert.match(response.body, /card\.number/);
    assert.doesNotMatch(response.body, /<script[^>]+src=/);
  });
});
