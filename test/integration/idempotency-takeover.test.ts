import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { postPayment, SAMPLE_CARD, type Merchant } from '../support/payments.js';
import { createDefaultConnectors } from '../../src/connectors/default-connectors.js';
import type { Connector } from '../../src/connectors/connector.js';
import { randomIds } from '../../src/domain/ids.js';
import { DEFAULT_LIFECYCLE_POLICY } from '../../src/domain/lifecycle/policy.js';
import { form, FORM_HEADERS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

const body = { amount: '12.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD };

/**
 * A request that died mid-flight (its process killed) leaves its key in flight; its lease is no
 * longer renewed. These tests make that state from a real request's row, then retry.
 */
for (const database of testDatabases()) {
  describe(`Idempotency-Key whose request died on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    // An acquirer that answers only when told to: its requests are slow, not dead.
    let release: () => void = () => undefined;
    const slowAcquirer: Connector = {
      id: 'slow-acquirer',
      policy: DEFAULT_LIFECYCLE_POLICY,
      liveCapable: true,
      debit: () => new Promise((resolve) => {
        release = () => resolve({ kind: 'success', code: '000.100.112', resultDetails: {} });
      }),
      authorize: async () => ({ kind: 'declined', code: '800.100.152', resultDetails: {} }),
      credit: async () => ({ kind: 'declined', code: '800.100.152', resultDetails: {} }),
      capture: async () => ({ kind: 'declined', code: '800.100.152', resultDetails: {} }),
      refund: async () => ({ kind: 'declined', code: '800.100.152', resultDetails: {} }),
      reverse: async () => ({ kind: 'declined', code: '800.100.152', resultDetails: {} }),
    };
    before(async () => {
      const storage = await database.open();
      const connectors = createDefaultConnectors({ storage, clock: { now: () => new Date() }, ids: randomIds, extra: [slowAcquirer] });
      t = await startTestApp(storage, { env: { LOG_LEVEL: 'warn', IDEMPOTENCY_LEASE_MS: '1000' }, overrides: { connectors } });
      merchant = await t.createMerchant();
      const route = await t.app.inject({ method: 'POST', url: '/admin/routes', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...FORM_HEADERS }, payload: form({ system: 'test', connector: 'slow-acquirer', entity: merchant.entityId }) });
      assert.equal(route.statusCode, 201, route.body);
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const count = async () => Number((await t.storage.query<{ n: bigint }>('SELECT count(*)::int8 AS n FROM transactions WHERE entity_id = $1', [merchant.entityId])).rows[0]!.n);

    /** The key as a killed request leaves it: in flight, no answer, its lease at `leaseUntil`. */
    async function dieInFlight(key: string, leaseUntil: Date): Promise<void> {
      await t.storage.query(
        `UPDATE idempotency_keys SET state = 'in_flight', response_status = NULL, response_body = NULL, lease_until = $3 WHERE entity_id = $1 AND key = $2`,
        [merchant.entityId, key, leaseUntil],
      );
    }

    it('a retry after the lease answers the payment the dead request wrote, and writes none', async () => {
      const first = (await postPayment(t, merchant, body, { 'idempotency-key': 'died-after-write' })).json();
      await dieInFlight('died-after-write', t.clock.now());
      const before = await count();
      const retry = await postPayment(t, merchant, body, { 'idempotency-key': 'died-after-write' });
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal(retry.json().id, first.id);
      assert.equal(retry.json().result.code, first.result.code);
      assert.equal(await count(), before);
      const replay = await postPayment(t, merchant, body, { 'idempotency-key': 'died-after-write' });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.json().id, first.id);
    });

    it('a retry after the lease runs the request when the dead one wrote nothing, once', async () => {
      const first = (await postPayment(t, merchant, body, { 'idempotency-key': 'died-before-write' })).json();
      // As if its pending row had never been written: the transaction no longer carries the claim.
      await t.storage.query('UPDATE transactions SET idempotency_claim_id = NULL WHERE id = $1', [first.id]);
      await dieInFlight('died-before-write', t.clock.now());
      const before = await count();
      const retries = await Promise.all([1, 2, 3].map(() => postPayment(t, merchant, body, { 'idempotency-key': 'died-before-write' })));
      const ran = retries.filter((r) => r.statusCode === 200 && r.headers['idempotent-replayed'] === undefined);
      assert.equal(ran.length, 1, retries.map((r) => r.body).join('\n'));
      assert.notEqual(ran[0]!.json().id, first.id);
      assert.ok(retries.every((r) => r.statusCode === 200 || r.json().result.code === '800.120.402'));
      assert.equal(await count(), before + 1, 'processed as the same request: one payment, never two');
    });

    it('while the lease runs the key is still in flight (409 800.120.402); another body is a conflict even after it', async () => {
      await postPayment(t, merchant, body, { 'idempotency-key': 'slow' });
      await dieInFlight('slow', new Date(t.clock.now().getTime() + 1_000));
      const early = await postPayment(t, merchant, body, { 'idempotency-key': 'slow' });
      assert.equal(early.statusCode, 409);
      assert.equal(early.json().result.code, '800.120.402');
      t.clock.advance(1_000);
      const other = await postPayment(t, merchant, { ...body, amount: '13.00' }, { 'idempotency-key': 'slow' });
      assert.equal(other.statusCode, 409);
      assert.equal(other.json().result.code, '200.200.106');
    });

    it('a request that is only slow keeps renewing its lease: a retry is told it is still running, never run twice', async () => {
      const first = postPayment(t, merchant, { ...body, testMode: 'EXTERNAL' }, { 'idempotency-key': 'slow-acquirer' });
      // Well past the lease on the gateway's clock; the renewal (every third of the lease) moves it on.
      while ((await count()) === 0 || !(await pendingUnderKey('slow-acquirer'))) await new Promise((resolve) => setTimeout(resolve, 20));
      t.clock.advance(5_000);
      await new Promise((resolve) => setTimeout(resolve, 800));
      const retry = await postPayment(t, merchant, { ...body, testMode: 'EXTERNAL' }, { 'idempotency-key': 'slow-acquirer' });
      assert.equal(retry.statusCode, 409, retry.body);
      assert.equal(retry.json().result.code, '800.120.402');
      release();
      const answered = await first;
      assert.equal(answered.statusCode, 200, answered.body);
      const replay = await postPayment(t, merchant, { ...body, testMode: 'EXTERNAL' }, { 'idempotency-key': 'slow-acquirer' });
      assert.equal(replay.json().id, answered.json().id);
    });

    async function pendingUnderKey(key: string): Promise<boolean> {
      const { rows } = await t.storage.query(
        `SELECT 1 FROM transactions t JOIN idempotency_keys k ON k.claim_id = t.idempotency_claim_id WHERE k.key = $1 AND t.status = 'pending'`, [key]);
      return rows.length > 0;
    }

    it('the database refuses a second transaction under one claim (the unique index behind "never twice")', async () => {
      const first = (await postPayment(t, merchant, body, { 'idempotency-key': 'unique' })).json();
      const { rows } = await t.storage.query<{ idempotency_claim_id: string }>('SELECT idempotency_claim_id FROM transactions WHERE id = $1', [first.id]);
      const claim = rows[0]!.idempotency_claim_id;
      assert.match(claim, /^[0-9a-f]{32}$/);
      await assert.rejects(
        t.storage.query(
          `INSERT INTO transactions (id, entity_id, payment_type, status, result_code, amount_minor, currency, short_id, connector_id, response, created_at, updated_at, idempotency_claim_id)
           VALUES ($1, $2, 'DB', 'pending', '000.200.000', 1, 'EUR', 'x', 'simulator', '{}', now(), now(), $3)`,
          ['9'.repeat(32), merchant.entityId, claim],
        ),
        /duplicate key|unique/i,
      );
    });
  });
}
