/**
 * An entity's own throttling limit (PUT /admin/entities/:id/throttling, migration 057): it applies
 * to that entity's tokens only, a change takes effect at once in the process that made it, the
 * change is audited, and a bad value is refused naming the field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { bearer, FORM_HEADERS, form, json, probeRoutes, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

// Above the admin API's calls here, which count against the admin token's own budget.
const GATEWAY_LIMIT = 30;
const env = { THROTTLE_MAX_REQUESTS: String(GATEWAY_LIMIT), THROTTLE_WINDOW_MS: '60000' };

for (const database of testDatabases()) {
  describe(`an entity's own throttling limit on ${database.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(await database.open(), { env, extraRoutes: probeRoutes });
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const setLimit = (entityId: string, maxRequests: string) =>
      t.app.inject({ method: 'PUT', url: `/admin/entities/${entityId}/throttling`, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form({ maxRequests }) });
    const statuses = async (entityId: string, token: string, count: number): Promise<number[]> => {
      const seen: number[] = [];
      for (let i = 0; i < count; i += 1) seen.push((await t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers: bearer(token) })).statusCode);
      return seen;
    };

    it("applies to that entity's tokens only, answered as today's throttling (429, 800.120.100)", async () => {
      const limited = await t.createMerchant('Limited');
      const other = await t.createMerchant('Other');
      const set = await setLimit(limited.entityId, '2');
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(json(set).throttleMaxRequests, 2);
      assert.deepEqual(await statuses(limited.entityId, limited.accessToken, 4), [200, 200, 429, 429]);
      const refused = await t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${limited.entityId}`, headers: bearer(limited.accessToken) });
      assert.equal(json(refused).result.code, '800.120.100');
      assert.ok(Number(refused.headers['retry-after']) > 0);
      assert.equal(refused.headers['x-ratelimit-limit'], '2');
      assert.deepEqual(await statuses(other.entityId, other.accessToken, GATEWAY_LIMIT + 1), [...Array(GATEWAY_LIMIT).fill(200), 429], "another entity keeps the gateway's limit");
    });

    it("counts a merchant token acting for its channel against the merchant's limit; a higher limit raises it", async () => {
      const merchant = await t.createMerchant('Busy');
      const channel = await t.createChannel(merchant.entityId);
      assert.equal((await setLimit(merchant.entityId, String(GATEWAY_LIMIT + 3))).statusCode, 200);
      assert.deepEqual(await statuses(channel.entityId, merchant.accessToken, GATEWAY_LIMIT + 4), [...Array(GATEWAY_LIMIT + 3).fill(200), 429]);
    });

    it('takes effect at once after a change, and default restores the gateway limit', async () => {
      const shop = await t.createMerchant('Changing');
      assert.deepEqual(await statuses(shop.entityId, shop.accessToken, 2), [200, 200], 'the entity settings are cached now');
      assert.equal((await setLimit(shop.entityId, '2')).statusCode, 200);
      assert.deepEqual(await statuses(shop.entityId, shop.accessToken, 1), [429]);
      const back = await setLimit(shop.entityId, 'default');
      assert.equal(back.statusCode, 200);
      assert.equal(json(back).throttleMaxRequests, null);
      assert.deepEqual(await statuses(shop.entityId, shop.accessToken, 1), [200], 'the gateway limit again (3 counted so far)');
    });

    it('audits the change with the settings before and after', async () => {
      const shop = await t.createMerchant('Audited');
      assert.equal((await setLimit(shop.entityId, '25')).statusCode, 200);
      const { rows } = await t.storage.query<{ actor_kind: string; target_id: string; before: { throttle_max_requests: number | null }; after: { throttle_max_requests: number | null } }>(
        "SELECT actor_kind, target_id, before, after FROM audit_log WHERE action = 'entities.throttling' AND target_id = $1", [shop.entityId]);
      assert.equal(rows.length, 1);
      const parse = <T>(v: T | string): T => (typeof v === 'string' ? JSON.parse(v) : v);
      assert.equal(parse(rows[0]!.before).throttle_max_requests, null);
      assert.equal(parse(rows[0]!.after).throttle_max_requests, 25);
    });

    it('refuses a bad value naming the field (400), an unknown entity (404) and a merchant token (403)', async () => {
      const shop = await t.createMerchant('Refused');
      for (const value of ['0', '-1', '2.5', 'many', '10000001', '4012888888881881']) {
        const bad = await setLimit(shop.entityId, value);
        assert.equal(bad.statusCode, 400, value);
        assert.equal(json(bad).result.parameterErrors[0].name, 'maxRequests', value);
        assert.equal(bad.body.includes('4012888888881881'), false);
      }
      const missing = await t.app.inject({ method: 'PUT', url: `/admin/entities/${shop.entityId}/throttling`, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: '' });
      assert.equal(missing.statusCode, 400);
      assert.equal(json(missing).result.parameterErrors[0].name, 'maxRequests');
      assert.equal((await setLimit('f'.repeat(32), '5')).statusCode, 404);
      const byMerchant = await t.app.inject({ method: 'PUT', url: `/admin/entities/${shop.entityId}/throttling`, headers: { ...bearer(shop.accessToken), ...FORM_HEADERS }, payload: form({ maxRequests: '5' }) });
      assert.equal(byMerchant.statusCode, 403);
      const { rows } = await t.storage.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'entities.throttling' AND target_id = $1", [shop.entityId]);
      assert.equal(rows[0]!.n, 0, 'nothing refused was audited');
    });
  });
}
