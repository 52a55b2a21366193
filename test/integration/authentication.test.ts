import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { bearer, form, FORM_HEADERS, json, probeRoutes, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';
import type { CreatedEntity } from '../../src/operations/admin/create-entity.js';

for (const database of testDatabases()) {
  describe(`authentication on ${database.name}`, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    let channel: CreatedEntity;
    let other: CreatedEntity;

    before(async () => {
      t = await startTestApp(await database.open(), { extraRoutes: probeRoutes });
      merchant = await t.createMerchant('Shop');
      channel = await t.createChannel(merchant.entityId, 'Shop web');
      other = await t.createMerchant('Other shop');
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const get = (headers: Record<string, string>, entityId?: string) =>
      t.app.inject({ method: 'GET', url: `/v1/probe${entityId ? `?entityId=${entityId}` : ''}`, headers });

    // One row per case: who asks, for which entity, and what the gateway answers.
    const cases: { name: string; headers: () => Record<string, string>; entity: () => string | undefined; status: number; code?: string }[] = [
      { name: 'no header', headers: () => ({}), entity: () => merchant.entityId, status: 401, code: '800.900.300' },
      { name: 'not a bearer header', headers: () => ({ authorization: `Basic ${merchant.accessToken}` }), entity: () => merchant.entityId, status: 401, code: '800.900.300' },
      { name: 'empty bearer', headers: () => ({ authorization: 'Bearer ' }), entity: () => merchant.entityId, status: 401, code: '800.900.300' },
      { name: 'unknown token', headers: () => bearer('x'.repeat(43)), entity: () => merchant.entityId, status: 403, code: '800.900.300' },
      { name: 'another entity', headers: () => bearer(merchant.accessToken), entity: () => other.entityId, status: 403, code: '800.900.301' },
      { name: 'unknown entity', headers: () => bearer(merchant.accessToken), entity: () => 'f'.repeat(32), status: 403, code: '800.900.301' },
      { name: 'channel token for its merchant', headers: () => bearer(channel.accessToken), entity: () => merchant.entityId, status: 403, code: '800.900.301' },
      { name: 'missing entityId', headers: () => bearer(merchant.accessToken), entity: () => undefined, status: 400, code: '200.300.404' },
      { name: 'malformed entityId', headers: () => bearer(merchant.accessToken), entity: () => 'ABC', status: 400, code: '200.300.404' },
      { name: 'own entity', headers: () => bearer(merchant.accessToken), entity: () => merchant.entityId, status: 200 },
      { name: 'merchant token for its channel', headers: () => bearer(merchant.accessToken), entity: () => channel.entityId, status: 200 },
      { name: 'channel token for itself', headers: () => bearer(channel.accessToken), entity: () => channel.entityId, status: 200 },
      // RFC 7235: the scheme is case-insensitive.
      { name: 'scheme in lower case', headers: () => ({ authorization: `bearer ${merchant.accessToken}` }), entity: () => merchant.entityId, status: 200 },
      { name: 'scheme in upper case', headers: () => ({ authorization: `BEARER ${merchant.accessToken}` }), entity: () => merchant.entityId, status: 200 },
      { name: 'scheme in mixed case', headers: () => ({ authorization: `bEaReR ${merchant.accessToken}` }), entity: () => merchant.entityId, status: 200 },
      { name: 'scheme without its token', headers: () => ({ authorization: 'bearer' }), entity: () => merchant.entityId, status: 401, code: '800.900.300' },
    ];
    for (const row of cases) {
      it(`${row.name} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
        const response = await get(row.headers(), row.entity());
        assert.equal(response.statusCode, row.status, response.body);
        const body = json(response);
        if (row.code) {
          assert.equal(body.result.code, row.code);
          assert.ok(body.buildNumber && body.timestamp && body.ndc, 'error bodies carry the envelope');
        } else {
          assert.equal(body.entityId, row.entity());
        }
      });
    }

    it('reads entityId from the form body on POST, not from the query string', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: `/v1/probe?entityId=${other.entityId}`,
        headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: merchant.entityId }),
      });
      assert.equal(response.statusCode, 200);
      assert.equal(json(response).entityId, merchant.entityId);
    });

    it('rejects entityId sent twice', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/probe',
        headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: [merchant.entityId, other.entityId] }),
      });
      assert.equal(response.statusCode, 400);
      assert.equal(json(response).result.parameterErrors[0].name, 'entityId');
    });

    it('a revoked token is refused at once', async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/admin/tokens',
        headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS },
        payload: form({ entity: merchant.entityId }),
      });
      assert.equal(created.statusCode, 201);
      const { accessToken, tokenId } = json(created);
      assert.equal((await get(bearer(accessToken), merchant.entityId)).statusCode, 200);
      const revoked = await t.app.inject({ method: 'DELETE', url: `/admin/tokens/${tokenId}`, headers: bearer(TEST_ADMIN_TOKEN) });
      assert.equal(revoked.statusCode, 200);
      const refused = await get(bearer(accessToken), merchant.entityId);
      assert.equal(refused.statusCode, 403);
      assert.equal(json(refused).result.code, '800.900.300');
    });

    it('the ndc names the entity once it is known', async () => {
      const body = json(await get(bearer(merchant.accessToken), 'f'.repeat(32)));
      assert.match(body.ndc, /^[0-9a-f]{32}$/);
      const ok = await t.app.inject({ method: 'GET', url: '/v1/resultcodes' });
      assert.match(json(ok).ndc, /^[0-9a-f]{32}$/);
    });
  });
}
