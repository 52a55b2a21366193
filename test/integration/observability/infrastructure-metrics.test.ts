import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { poolSizes } from '../../../src/storage/pg-storage.js';
import { testDatabases } from '../../support/databases.js';
import { deltas, histogramOf, valueOf, valuesOf } from '../../support/metrics.js';
import { cardPayment, referencePayment, type Merchant } from '../../support/payments.js';
import { bearer, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../../support/test-app.js';

/** The pool size of the test databases (test/support/databases.ts). */
const TEST_POOL_SIZE = 20;

for (const database of testDatabases()) {
  describe(`database pools and group commit on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn' } });
      merchant = await t.createMerchant();
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    it(database.name === 'postgres' ? 'the pools\' connections in use, idle and waiting, and their most' : 'PGlite has no pool: no pool series', async () => {
      const scrape = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TEST_ADMIN_TOKEN) });
      if (database.name !== 'postgres') {
        assert.doesNotMatch(scrape.body, /^gateway_db_pool_\w+\{/m);
        return;
      }
      const sizes = poolSizes(TEST_POOL_SIZE);
      assert.match(scrape.body, new RegExp(`^gateway_db_pool_max_connections\\{pool="main"\\} ${sizes.general}$`, 'm'));
      assert.match(scrape.body, new RegExp(`^gateway_db_pool_max_connections\\{pool="group_writes"\\} ${sizes.groupWrites}$`, 'm'));
      // The scrape's own queries are not counted: the pools are read before they borrow a connection.
      assert.equal(await valueOf(t, 'gateway_db_pool_connections', { pool: 'main', state: 'in_use' }), 0);

      // Every connection of the general pool held by a transaction, and one more waiting.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const held = Array.from({ length: sizes.general + 1 }, () => t.storage.transaction(() => gate));
      await waitFor(() => t.storage.poolStats!()[0]!.waiting === 1);
      const reading = Promise.all([
        valueOf(t, 'gateway_db_pool_connections', { pool: 'main', state: 'in_use' }),
        valueOf(t, 'gateway_db_pool_connections', { pool: 'main', state: 'idle' }),
        valueOf(t, 'gateway_db_pool_waiting_requests', { pool: 'main' }),
      ]);
      // The scrape has read the pools; let the transactions go so that its own queries find a connection.
      await nextTurn();
      release();
      await Promise.all(held);
      assert.deepEqual(await reading, [sizes.general, 0, 1]);
      assert.equal(await valueOf(t, 'gateway_db_pool_waiting_requests', { pool: 'main' }), 0);
    });

    it('group-commit batch sizes: every payment\'s pending row, outcome and reservation is in one recorded group', async () => {
      const metric = 'gateway_group_commit_batch_size';
      const before = await Promise.all(['pending', 'settled', 'reservation'].map((write) => histogramOf(t, metric, { write })));
      const authorised = await Promise.all(Array.from({ length: 6 }, () => cardPayment(t, merchant, 'PA', '10.00')));
      assert.deepEqual(authorised.map((r) => r.statusCode), authorised.map(() => 200));
      const captured = await Promise.all(authorised.slice(0, 4).map((pa) => referencePayment(t, merchant, pa.json().id, 'CP', '10.00')));
      assert.deepEqual(captured.map((r) => r.statusCode), captured.map(() => 200));
      const after = await Promise.all(['pending', 'settled', 'reservation'].map((write) => histogramOf(t, metric, { write })));
      const [pending, settled, reservation] = after.map((h, i) => ({ rows: h.sum - before[i]!.sum, groups: h.count - before[i]!.count }));
      // Six authorisations write six pending rows; the four captures reserve on their parents instead.
      assert.equal(pending!.rows, 6);
      assert.equal(reservation!.rows, 4);
      assert.equal(settled!.rows, 10);
      for (const write of [pending!, settled!, reservation!]) assert.ok(write.groups >= 1 && write.groups <= write.rows, JSON.stringify(write));
    });
  });

  describe(`throttled requests and failed authentications on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn', THROTTLE_MAX_REQUESTS: '3', THROTTLE_WINDOW_MS: '600000', AUTH_FAILURE_MAX_PER_WINDOW: '3' } });
      merchant = await t.createMerchant();
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const COUNTS = {
      throttled: ['gateway_throttled_requests_total'],
      missing: ['gateway_authentication_failures_total', { reason: 'missing' }],
      invalid: ['gateway_authentication_failures_total', { reason: 'invalid' }],
      lockedOut: ['gateway_authentication_failures_total', { reason: 'locked_out' }],
      admin: ['gateway_authentication_failures_total', { reason: 'admin' }],
    } as const;
    const NOTHING = { throttled: 0, missing: 0, invalid: 0, lockedOut: 0, admin: 0 };
    const paymentUrl = () => `/v1/payments/${'a'.repeat(32)}?entityId=${merchant.entityId}`;
    const get = (url: string, remoteAddress: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers, remoteAddress });

    it('a request over THROTTLE_MAX_REQUESTS is throttled (429 800.120.100) and counted', async () => {
      const before = await valuesOf(t, COUNTS);
      const statuses: number[] = [];
      for (let n = 0; n < 5; n += 1) statuses.push((await get('/v1/resultcodes', '10.0.1.1', bearer(merchant.accessToken))).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
      assert.deepEqual(deltas(before, await valuesOf(t, COUNTS)), { ...NOTHING, throttled: 2 });
    });

    it('failed authentications by reason: no token, an unknown token, a wrong admin token', async () => {
      const before = await valuesOf(t, COUNTS);
      assert.equal((await get(paymentUrl(), '10.0.2.1')).statusCode, 401);
      assert.equal((await get(paymentUrl(), '10.0.2.2', { authorization: 'Bearer not-a-token' })).statusCode, 401, 'malformed counts as missing');
      assert.equal((await get(paymentUrl(), '10.0.2.3', bearer('u'.repeat(40)))).statusCode, 403);
      assert.equal((await get('/admin/routes', '10.0.2.4', bearer('w'.repeat(40)))).statusCode, 403);
      assert.equal((await get('/admin/routes', '10.0.2.5', bearer(TEST_ADMIN_TOKEN))).statusCode, 200);
      assert.deepEqual(deltas(before, await valuesOf(t, COUNTS)), { ...NOTHING, missing: 2, invalid: 1, admin: 1 });
    });

    it('an address over AUTH_FAILURE_MAX_PER_WINDOW: the failure that goes over is throttled, the next requests are locked out', async () => {
      const before = await valuesOf(t, COUNTS);
      const statuses: number[] = [];
      for (let n = 0; n < 6; n += 1) statuses.push((await get(paymentUrl(), '10.0.3.1', bearer(`${n}`.repeat(40)))).statusCode);
      assert.deepEqual(statuses, [403, 403, 403, 429, 429, 429]);
      assert.deepEqual(deltas(before, await valuesOf(t, COUNTS)), { ...NOTHING, invalid: 4, lockedOut: 2, throttled: 3 });
    });
  });
}

async function waitFor(condition: () => boolean, deadlineMs = 10_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
