import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { bearer, form, FORM_HEADERS, json, probeRoutes, startTestApp, type TestApp } from '../support/test-app.js';

const https = { 'x-forwarded-proto': 'https' };

for (const database of testDatabases()) {
  describe(`live system on ${database.name}`, () => {
    let t: TestApp;
    let token: string;
    let entityId: string;
    before(async () => {
      t = await startTestApp(await database.open(), { env: { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true' }, extraRoutes: probeRoutes });
      ({ accessToken: token, entityId } = await t.createMerchant());
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    for (const testMode of ['INTERNAL', 'EXTERNAL', '']) {
      it(`testMode=${testMode || '(empty)'} → 400 600.200.701`, async () => {
        const response = await t.app.inject({
          method: 'POST',
          url: '/v1/probe',
          headers: { ...bearer(token), ...FORM_HEADERS, ...https },
          payload: form({ entityId, testMode }),
        });
        assert.equal(response.statusCode, 400);
        assert.equal(json(response).result.code, '600.200.701');
        assert.equal(json(response).result.description, 'testMode not allowed on production');
      });
    }

    it('testMode in the query string of a GET is refused too', async () => {
      const response = await t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}&testMode=INTERNAL`, headers: { ...bearer(token), ...https } });
      assert.equal(json(response).result.code, '600.200.701');
    });

    it('a request without testMode passes', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { ...bearer(token), ...FORM_HEADERS, ...https }, payload: form({ entityId }) });
      assert.equal(response.statusCode, 200);
    });

    it('plain HTTP (no X-Forwarded-Proto: https from the proxy) is refused', async () => {
      const response = await t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers: { ...bearer(token), 'x-forwarded-proto': 'http' } });
      assert.equal(response.statusCode, 403);
      assert.equal(json(response).result.code, '800.900.302');
    });
  });
}

describe('test system', () => {
  it('accepts testMode', async () => {
    const [database] = testDatabases();
    const t = await startTestApp(await database!.open(), { extraRoutes: probeRoutes });
    const { accessToken, entityId } = await t.createMerchant();
    const response = await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { ...bearer(accessToken), ...FORM_HEADERS }, payload: form({ entityId, testMode: 'INTERNAL' }) });
    await t.close();
    await t.storage.close();
    assert.equal(response.statusCode, 200);
  });
});
