import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { buildAdminApp } from '../../src/app.js';
import { testDatabases } from '../support/databases.js';
import { bearer, json, probeRoutes, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

const admin = bearer(TEST_ADMIN_TOKEN);

for (const database of testDatabases()) {
  describe(`the administration API on a listener of its own (ADMIN_PORT) on ${database.name}`, () => {
    let t: TestApp;
    let adminApp: FastifyInstance;
    before(async () => {
      t = await startTestApp(await database.open(), { env: { ADMIN_PORT: '0' }, extraRoutes: probeRoutes });
      adminApp = await buildAdminApp(t.app);
    });
    after(async () => {
      await adminApp.close();
      await t.close();
      await t.storage.close();
    });

    it('the public listener answers 404 for /admin, the admin listener serves it', async () => {
      const onPublic = await t.app.inject({ method: 'GET', url: '/admin/entities', headers: admin });
      assert.equal(onPublic.statusCode, 404);
      assert.equal(json(onPublic).result.code, '200.300.404');
      const onAdmin = await adminApp.inject({ method: 'GET', url: '/admin/entities', headers: admin });
      assert.equal(onAdmin.statusCode, 200, onAdmin.body);
      assert.equal((await t.app.inject({ method: 'GET', url: '/admin/webhooks', headers: admin })).statusCode, 404);
    });

    it('the admin listener serves nothing but /admin, and still wants the admin token', async () => {
      assert.equal((await adminApp.inject({ method: 'GET', url: '/v1/resultcodes' })).statusCode, 404);
      assert.equal((await adminApp.inject({ method: 'GET', url: '/health' })).statusCode, 404);
      assert.equal((await adminApp.inject({ method: 'GET', url: '/admin/entities' })).statusCode, 401);
      assert.equal((await adminApp.inject({ method: 'GET', url: '/admin/entities', headers: bearer('y'.repeat(40)) })).statusCode, 403);
    });

    it('a token revoked on the admin listener is refused on the public one at once (one cache)', async () => {
      const created = await adminApp.inject({ method: 'POST', url: '/admin/entities', headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=Shop' });
      assert.equal(created.statusCode, 201, created.body);
      const { entityId, accessToken, tokenId } = json(created) as { entityId: string; accessToken: string; tokenId: string };
      const probe = () => t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers: bearer(accessToken) });
      assert.equal((await probe()).statusCode, 200);
      assert.equal((await adminApp.inject({ method: 'DELETE', url: `/admin/tokens/${tokenId}`, headers: admin })).statusCode, 200);
      assert.equal((await probe()).statusCode, 403);
    });
  });
}

describe('the administration listener on the live system behind a TLS proxy', () => {
  const live = { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true', ADMIN_PORT: '0' };
  const listAsAdmin = async (env: Record<string, string>) => {
    const [database] = testDatabases();
    const t = await startTestApp(await database!.open(), { env });
    const adminApp = await buildAdminApp(t.app);
    try {
      return await adminApp.inject({ method: 'GET', url: '/admin/entities', headers: admin });
    } finally {
      await adminApp.close();
      await t.close();
      await t.storage.close();
    }
  };

  it('bound to loopback (the default ADMIN_HOST), it takes plain HTTP: the command line manages the gateway', async () => {
    assert.equal((await listAsAdmin(live)).statusCode, 200);
  });

  it('bound to another address, it follows the live rule: plain HTTP is refused with 800.900.302', async () => {
    const response = await listAsAdmin({ ...live, ADMIN_HOST: '0.0.0.0' });
    assert.equal(response.statusCode, 403);
    assert.equal(json(response).result.code, '800.900.302');
  });
});
