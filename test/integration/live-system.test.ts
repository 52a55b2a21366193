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

    it('X-Forwarded-Proto: https from an address that is not a trusted proxy is refused', async () => {
      const response = await t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers: { ...bearer(token), ...https }, remoteAddress: '203.0.113.7' });
      assert.equal(response.statusCode, 403);
      assert.equal(json(response).result.code, '800.900.302');
    });

    it('never simulates a shopper page or a 3-D Secure authentication', async () => {
      for (const path of ['/v1/simulator/provider/', '/v1/simulator/acs/']) {
        const page = await t.app.inject({ method: 'GET', url: `${path}${'a'.repeat(32)}`, headers: https });
        assert.equal(page.statusCode, 404);
        assert.equal(json(page).result.code, '200.300.404');
      }
      const authentication = await t.app.inject({
        method: 'POST', url: '/v1/threeDSecure', headers: { ...bearer(token), ...FORM_HEADERS, ...https },
        payload: form({ entityId, amount: '92.00', currency: 'EUR', paymentBrand: 'VISA', 'card.number': '4200000000000091', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123', shopperResultUrl: 'https://shop.example.com/r' }),
      });
      assert.equal(json(authentication).result.code, '000.400.104');
      assert.equal(authentication.body.includes('4200000000000091'), false);
    });

    it('plain HTTP (no X-Forwarded-Proto: https from the proxy) is refused', async () => {
      const response = await t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers: { ...bearer(token), 'x-forwarded-proto': 'http' } });
      assert.equal(response.statusCode, 403);
      assert.equal(json(response).result.code, '800.900.302');
    });
  });
}

for (const database of testDatabases()) {
  describe(`live system behind the proxies of TRUSTED_PROXIES on ${database.name}`, () => {
    const PROXY = '10.20.30.40';
    let t: TestApp;
    let token: string;
    let entityId: string;
    before(async () => {
      const env = { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true', TRUSTED_PROXIES: '10.20.30.0/24, 2001:db8::/32', AUTH_FAILURE_MAX_PER_WINDOW: '2' };
      t = await startTestApp(await database.open(), { env, extraRoutes: probeRoutes });
      ({ accessToken: token, entityId } = await t.createMerchant());
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const probe = (remoteAddress: string, headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers, remoteAddress });

    // One row per case: the connection's address, what it claims, and the answer.
    const cases: { from: string; proto?: string; status: number }[] = [
      { from: PROXY, proto: 'https', status: 200 },
      { from: '2001:db8::7', proto: 'https', status: 200 },
      { from: PROXY, proto: 'http', status: 403 },
      { from: PROXY, status: 403 },
      { from: '127.0.0.1', proto: 'https', status: 403 },
      { from: '10.20.31.1', proto: 'https', status: 403 },
      { from: '198.51.100.1', proto: 'https', status: 403 },
    ];
    for (const row of cases) {
      it(`from ${row.from} with X-Forwarded-Proto ${row.proto ?? '(none)'} → ${row.status}`, async () => {
        const response = await probe(row.from, { ...bearer(token), ...(row.proto ? { 'x-forwarded-proto': row.proto } : {}) });
        assert.equal(response.statusCode, row.status, response.body);
        if (row.status === 403) assert.equal(json(response).result.code, '800.900.302');
      });
    }

    it('failed authentications count per client behind the proxy (X-Forwarded-For), not per proxy', async () => {
      const fromClient = (client: string) => probe(PROXY, { ...bearer('x'.repeat(43)), ...https, 'x-forwarded-for': client });
      const first = [await fromClient('192.0.2.1'), await fromClient('192.0.2.1'), await fromClient('192.0.2.1')].map((r) => r.statusCode);
      assert.deepEqual(first, [403, 403, 429]);
      assert.equal((await fromClient('192.0.2.2')).statusCode, 403, 'another client of the same proxy has its own count');
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
