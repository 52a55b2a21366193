import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { testDatabases } from '../support/databases.js';
import { bearer, json, probeRoutes, startTestApp, type TestApp } from '../support/test-app.js';

const LIMIT = 5;
const env = { THROTTLE_MAX_REQUESTS: String(LIMIT), THROTTLE_WINDOW_MS: '60000' };

for (const database of testDatabases()) {
  describe(`throttling on ${database.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(await database.open(), { env, extraRoutes: probeRoutes });
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    it('a flood above the limit gets 429 with 800.120.100 and Retry-After, per token', async () => {
      const { accessToken, entityId } = await t.createMerchant();
      const other = await t.createMerchant('Other');
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 3; i += 1) {
        statuses.push((await t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers: bearer(accessToken) })).statusCode);
      }
      assert.deepEqual(statuses, [...Array(LIMIT).fill(200), 429, 429, 429]);
      const throttled = await t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers: bearer(accessToken) });
      assert.equal(throttled.statusCode, 429);
      assert.equal(json(throttled).result.code, '800.120.100');
      assert.equal(json(throttled).result.description, 'Too many requests; try again later');
      assert.ok(Number(throttled.headers['retry-after']) > 0);
      const fresh = await t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${other.entityId}`, headers: bearer(other.accessToken) });
      assert.equal(fresh.statusCode, 200, 'another token has its own budget');
    });
  });
}

const redisUrl = process.env['TEST_REDIS_URL'];
describe('throttling shared through Redis', { skip: redisUrl ? false : 'TEST_REDIS_URL not set' }, () => {
  it('two gateway processes share one limit', async () => {
    const [database] = testDatabases();
    const storage = await database!.open();
    const redisA = new Redis(redisUrl!);
    const redisB = new Redis(redisUrl!);
    const a = await startTestApp(storage, { env: env, extraRoutes: probeRoutes, overrides: { redis: redisA } });
    const b = await startTestApp(storage, { env: env, extraRoutes: probeRoutes, overrides: { redis: redisB } });
    try {
      const { accessToken, entityId } = await a.createMerchant();
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 2; i += 1) {
        const app = i % 2 === 0 ? a.app : b.app;
        statuses.push((await app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers: bearer(accessToken) })).statusCode);
      }
      assert.deepEqual(statuses, [...Array(LIMIT).fill(200), 429, 429]);
    } finally {
      await a.close();
      await b.close();
      redisA.disconnect();
      redisB.disconnect();
      await storage.close();
    }
  });
});
