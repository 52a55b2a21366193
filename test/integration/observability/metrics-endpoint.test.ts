import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { buildAdminApp } from '../../../src/app.js';
import { testDatabases } from '../../support/databases.js';
import { bearer, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../../support/test-app.js';

const [database] = testDatabases();

async function scrape(app: FastifyInstance, headers: Record<string, string> = {}, remoteAddress?: string) {
  return app.inject({ method: 'GET', url: '/metrics', headers, ...(remoteAddress ? { remoteAddress } : {}) });
}

describe('GET /metrics on the one listener (no ADMIN_PORT)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(await database!.open(), { env: { METRICS_ALLOW_FROM: '10.1.2.0/24' } });
  });
  after(async () => {
    await t.close();
    await t.storage.close();
  });

  it('asks for the admin token: none is 401, a wrong one 403', async () => {
    assert.equal((await scrape(t.app)).statusCode, 401);
    assert.equal((await scrape(t.app, bearer('w'.repeat(40)))).statusCode, 403);
  });

  it('answers the Prometheus text format with the admin token, request durations by route template', async () => {
    await t.app.inject({ method: 'GET', url: '/v1/resultcodes' });
    await t.app.inject({ method: 'GET', url: '/v1/payments/8ac7a4a1000000000000000000000001?entityId=8ac7a4c8000000000000000000000000' });
    const response = await scrape(t.app, bearer(TEST_ADMIN_TOKEN));
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    assert.match(response.body, /^# TYPE http_server_request_duration_seconds histogram$/m);
    assert.match(response.body, /http_server_request_duration_seconds_count\{http_request_method="GET",http_route="\/v1\/resultcodes",http_response_status_code="200"\} 1$/m);
    // The template, never the path: ids stay out of the labels.
    assert.match(response.body, /http_route="\/v1\/payments\/:id"/);
    assert.doesNotMatch(response.body, /8ac7a4a1000000000000000000000001/);
  });

  it('lets an address on METRICS_ALLOW_FROM scrape without a token, and no other', async () => {
    assert.equal((await scrape(t.app, {}, '10.1.2.7')).statusCode, 200);
    assert.equal((await scrape(t.app, {}, '10.1.3.7')).statusCode, 401);
  });

  it('labels the running build', async () => {
    const response = await scrape(t.app, bearer(TEST_ADMIN_TOKEN));
    assert.match(response.body, /gateway_build_info\{version="[^"]+",build_number="a{40}@[^"]+",system="test"\} 1/);
  });
});

describe('GET /metrics with an admin listener (ADMIN_PORT)', () => {
  let t: TestApp;
  let adminApp: FastifyInstance;
  before(async () => {
    t = await startTestApp(await database!.open(), { env: { ADMIN_PORT: '0' } });
    adminApp = await buildAdminApp(t.app);
  });
  after(async () => {
    await adminApp.close();
    await t.close();
    await t.storage.close();
  });

  it('is served on the admin listener without a token, and not on the public one', async () => {
    await t.app.inject({ method: 'GET', url: '/v1/resultcodes' });
    assert.equal((await scrape(t.app, bearer(TEST_ADMIN_TOKEN))).statusCode, 404);
    const response = await scrape(adminApp);
    assert.equal(response.statusCode, 200);
    // One registry for both listeners: the public listener's request is in the admin's scrape.
    assert.match(response.body, /http_route="\/v1\/resultcodes"/);
  });
});

describe('METRICS_ENABLED=false', () => {
  it('records nothing and answers 404', async () => {
    const t = await startTestApp(await database!.open(), { env: { METRICS_ENABLED: 'false' } });
    try {
      assert.equal(t.app.gateway.metrics, undefined);
      assert.equal((await scrape(t.app, bearer(TEST_ADMIN_TOKEN))).statusCode, 404);
    } finally {
      await t.close();
      await t.storage.close();
    }
  });
});

describe('a node whose processes do not answer the scrape', () => {
  it('fails the scrape with 503 rather than answering one process\'s figures', async () => {
    const t = await startTestApp(await database!.open(), { overrides: { nodeMetricsText: () => Promise.reject(new Error('the cluster primary did not answer')) } });
    try {
      const response = await scrape(t.app, bearer(TEST_ADMIN_TOKEN));
      assert.equal(response.statusCode, 503);
      assert.match(response.body, /metrics unavailable/);
    } finally {
      await t.close();
      await t.storage.close();
    }
  });
});

describe('failed scrapes on the public listener', () => {
  it('count as failed authentications against the address, like /admin', async () => {
    const t = await startTestApp(await database!.open(), { env: { AUTH_FAILURE_MAX_PER_WINDOW: '2' } });
    try {
      const before = await t.app.gateway.metrics!.value('gateway_authentication_failures_total');
      assert.equal((await scrape(t.app, {}, '10.9.9.9')).statusCode, 401);
      assert.equal((await scrape(t.app, bearer('w'.repeat(40)), '10.9.9.9')).statusCode, 403);
      assert.equal(await t.app.gateway.metrics!.value('gateway_authentication_failures_total'), before + 2);
      // The failure over the limit answers 429, and from then on the address is refused unread, even with the right token.
      assert.equal((await scrape(t.app, bearer('w'.repeat(40)), '10.9.9.9')).statusCode, 429);
      assert.equal((await scrape(t.app, bearer(TEST_ADMIN_TOKEN), '10.9.9.9')).statusCode, 429);
      assert.equal((await scrape(t.app, bearer(TEST_ADMIN_TOKEN), '10.9.9.10')).statusCode, 200);
    } finally {
      await t.close();
      await t.storage.close();
    }
  });
});
