import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { accessTokenOf } from '../../src/domain/access-token-form.js';
import { randomIds } from '../../src/domain/ids.js';
import { createAccessToken } from '../../src/operations/admin/create-access-token.js';
import { UNKNOWN_TOKEN_TTL_MS } from '../../src/operations/auth/resolve-principal.js';
import type { Storage } from '../../src/storage/port.js';
import { testDatabases } from '../support/databases.js';
import { bearer, json, probeRoutes, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

const MAX_FAILURES = 4;
const WINDOW_MS = 60_000;
const env = { AUTH_FAILURE_MAX_PER_WINDOW: String(MAX_FAILURES), AUTH_FAILURE_WINDOW_MS: String(WINDOW_MS) };

const randomToken = () => randomBytes(32).toString('base64url');
// A fresh client address per test, so tests (and two copies of the suite on one Redis) never share a count.
const randomAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** The storage with a count of token look-ups (the query an unknown token costs). */
function countingLookups(storage: Storage): { storage: Storage; lookups: () => number } {
  let lookups = 0;
  const counted = new Proxy(storage, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver);
      return (sql: string, ...rest: unknown[]) => {
        if (sql.includes('FROM access_tokens t')) lookups += 1;
        return (target.query as (...args: unknown[]) => unknown)(sql, ...rest);
      };
    },
  });
  return { storage: counted, lookups: () => lookups };
}

for (const database of testDatabases()) {
  describe(`failed authentications per client address on ${database.name}`, () => {
    let t: TestApp;
    let lookups: () => number;
    let entityId: string;
    let accessToken: string;
    before(async () => {
      const counting = countingLookups(await database.open());
      lookups = counting.lookups;
      t = await startTestApp(counting.storage, { env, extraRoutes: probeRoutes });
      ({ entityId, accessToken } = await t.createMerchant());
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const probe = (remoteAddress: string, headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers, remoteAddress });

    it('rotating random tokens is throttled: 429 800.120.100 with Retry-After after the limit, for that address only', async () => {
      const address = randomAddress();
      const statuses: number[] = [];
      for (let i = 0; i < MAX_FAILURES + 3; i += 1) statuses.push((await probe(address, bearer(randomToken()))).statusCode);
      assert.deepEqual(statuses, [...Array(MAX_FAILURES).fill(403), 429, 429, 429]);
      const throttled = await probe(address, bearer(randomToken()));
      assert.equal(json(throttled).result.code, '800.120.100');
      assert.ok(Number(throttled.headers['retry-after']) > 0 && Number(throttled.headers['retry-after']) <= WINDOW_MS / 1000);
      assert.equal((await probe(address, bearer(accessToken))).statusCode, 429, 'the address waits, whatever token it sends now');
      assert.equal((await probe(randomAddress(), bearer(accessToken))).statusCode, 200, 'another address is not affected');
      assert.equal((await t.app.inject({ method: 'GET', url: '/health', remoteAddress: address })).statusCode, 200, 'public routes stay open');
    });

    it('the address may try again once the window has passed', async () => {
      const address = randomAddress();
      for (let i = 0; i <= MAX_FAILURES; i += 1) await probe(address, bearer(randomToken()));
      assert.equal((await probe(address, bearer(accessToken))).statusCode, 429);
      t.clock.advance(WINDOW_MS);
      assert.equal((await probe(address, bearer(accessToken))).statusCode, 200);
    });

    it('requests without a usable Authorization header count as failures too', async () => {
      const address = randomAddress();
      const statuses: number[] = [];
      for (let i = 0; i < MAX_FAILURES + 1; i += 1) statuses.push((await probe(address, i % 2 ? {} : { authorization: 'Basic x' })).statusCode);
      assert.deepEqual(statuses, [...Array(MAX_FAILURES).fill(401), 429]);
    });

    it('admin-token guesses share the limit', async () => {
      const address = randomAddress();
      const guess = () => t.app.inject({ method: 'GET', url: '/admin/entities', headers: bearer(randomToken()), remoteAddress: address });
      const statuses: number[] = [];
      for (let i = 0; i < MAX_FAILURES + 2; i += 1) statuses.push((await guess()).statusCode);
      assert.deepEqual(statuses, [...Array(MAX_FAILURES).fill(403), 429, 429]);
      const right = await t.app.inject({ method: 'GET', url: '/admin/entities', headers: bearer(TEST_ADMIN_TOKEN), remoteAddress: address });
      assert.equal(right.statusCode, 429, 'even the right token waits: the guesser is stopped, not told');
      const elsewhere = await t.app.inject({ method: 'GET', url: '/admin/entities', headers: bearer(TEST_ADMIN_TOKEN), remoteAddress: randomAddress() });
      assert.equal(elsewhere.statusCode, 200);
    });

    it('a flood of random tokens costs the limit in database look-ups, and one more (the failure that goes over it)', async () => {
      const address = randomAddress();
      const before = lookups();
      for (let i = 0; i < MAX_FAILURES * 5; i += 1) await probe(address, bearer(randomToken()));
      assert.equal(lookups() - before, MAX_FAILURES + 1);
    });

    it('an unknown token repeated costs one look-up while it is remembered as unknown', async () => {
      const token = randomToken();
      const before = lookups();
      for (let i = 0; i < 3; i += 1) assert.equal((await probe(randomAddress(), bearer(token))).statusCode, 403);
      assert.equal(lookups() - before, 1);
    });

    it('a token that becomes valid after a look-up cached it as unknown works within UNKNOWN_TOKEN_TTL_MS', async () => {
      const [tokenId, password] = [randomIds.id(), randomIds.tokenPassword()];
      const token = accessTokenOf(tokenId, password);
      assert.equal((await probe(randomAddress(), bearer(token))).statusCode, 403);
      await createAccessToken({ storage: t.storage, clock: t.clock, ids: { id: () => tokenId, tokenPassword: () => password } }, entityId);
      assert.equal((await probe(randomAddress(), bearer(token))).statusCode, 403, 'still remembered as unknown');
      t.clock.advance(UNKNOWN_TOKEN_TTL_MS);
      assert.equal((await probe(randomAddress(), bearer(token))).statusCode, 200);
    });
  });
}

describe('failed authentications of a client that is not a trusted proxy', () => {
  it('are counted on its own address, whatever X-Forwarded-For it sends', async () => {
    const [database] = testDatabases();
    const t = await startTestApp(await database!.open(), { env: { ...env, TRUST_PROXY_TLS: 'true', TRUSTED_PROXIES: '10.20.30.40' }, extraRoutes: probeRoutes });
    try {
      const { entityId } = await t.createMerchant();
      const direct = '198.51.100.9';
      const statuses: number[] = [];
      for (let i = 0; i < MAX_FAILURES + 1; i += 1) {
        const headers = { ...bearer(randomToken()), 'x-forwarded-for': randomAddress() };
        statuses.push((await t.app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers, remoteAddress: direct })).statusCode);
      }
      assert.deepEqual(statuses, [...Array(MAX_FAILURES).fill(403), 429]);
    } finally {
      await t.close();
      await t.storage.close();
    }
  });
});

const redisUrl = process.env['TEST_REDIS_URL'];
describe('failed authentications counted through Redis', { skip: redisUrl ? false : 'TEST_REDIS_URL not set' }, () => {
  it('two gateway processes share one count per address', async () => {
    const [database] = testDatabases();
    const storage = await database!.open();
    const redisA = new Redis(redisUrl!);
    const redisB = new Redis(redisUrl!);
    const a = await startTestApp(storage, { env, extraRoutes: probeRoutes, overrides: { redis: redisA } });
    const b = await startTestApp(storage, { env, extraRoutes: probeRoutes, overrides: { redis: redisB } });
    try {
      const { entityId } = await a.createMerchant();
      const address = randomAddress();
      const statuses: number[] = [];
      for (let i = 0; i < MAX_FAILURES + 2; i += 1) {
        const app = i % 2 === 0 ? a.app : b.app;
        statuses.push((await app.inject({ method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers: bearer(randomToken()), remoteAddress: address })).statusCode);
      }
      assert.deepEqual(statuses, [...Array(MAX_FAILURES).fill(403), 429, 429]);
    } finally {
      await a.close();
      await b.close();
      redisA.disconnect();
      redisB.disconnect();
      await storage.close();
    }
  });
});
