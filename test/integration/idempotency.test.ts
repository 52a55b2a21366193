import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { cardPayment, postPayment, SAMPLE_CARD, type Merchant } from '../support/payments.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const body = { amount: '12.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD };

for (const database of testDatabases()) {
  describe(`Idempotency-Key on ${database.name}`, () => {
    let a: TestApp;
    let b: TestApp;
    let merchant: Merchant;
    before(async () => {
      const storage = await database.open();
      // Two apps on one database stand for two gateway processes.
      a = await startTestApp(storage, { env: { LOG_LEVEL: 'warn' } });
      // Processes of one gateway share its vault's master key (the risk engine fingerprints every card).
      b = await startTestApp(storage, { env: { LOG_LEVEL: 'warn' }, vault: a.vault });
      merchant = await a.createMerchant();
    });
    after(async () => {
      await a.close();
      await b.close();
      await a.storage.close();
    });

    const countPayments = async () =>
      Number((await a.storage.query<{ n: bigint }>('SELECT count(*)::int8 AS n FROM transactions WHERE entity_id = $1', [merchant.entityId])).rows[0]!.n);

    it('the same request sent twice with one key creates one payment, also through another process', async () => {
      const before = await countPayments();
      const first = await postPayment(a, merchant, body, { 'idempotency-key': 'order-1-attempt' });
      const second = await postPayment(a, merchant, body, { 'idempotency-key': 'order-1-attempt' });
      const third = await postPayment(b, merchant, body, { 'idempotency-key': 'order-1-attempt' });
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(second.json().id, first.json().id);
      assert.equal(third.json().id, first.json().id);
      assert.equal(second.headers['idempotent-replayed'], 'true');
      assert.equal(await countPayments(), before + 1);
    });

    it('the same key with another body is a conflict', async () => {
      await postPayment(a, merchant, body, { 'idempotency-key': 'order-2' });
      const other = await postPayment(a, merchant, { ...body, amount: '13.00' }, { 'idempotency-key': 'order-2' });
      assert.equal(other.statusCode, 409);
      assert.equal(other.json().result.code, '200.200.106');
    });

    it('concurrent requests with one key run once; the others wait their turn or are told it is in flight', async () => {
      const before = await countPayments();
      const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => postPayment(i % 2 ? a : b, merchant, body, { 'idempotency-key': 'order-3' })));
      assert.equal(await countPayments(), before + 1);
      const ids = new Set(responses.filter((r) => r.statusCode === 200).map((r) => r.json().id));
      assert.equal(ids.size, 1);
      for (const r of responses.filter((r) => r.statusCode !== 200)) {
        assert.equal(r.statusCode, 409);
        assert.equal(r.json().result.code, '800.120.402');
      }
    });

    it('keys are per entity, and requests without a key are never de-duplicated', async () => {
      const other = await a.createMerchant('Other');
      const mine = await postPayment(a, merchant, body, { 'idempotency-key': 'shared-key' });
      const theirs = await postPayment(a, other, body, { 'idempotency-key': 'shared-key' });
      assert.notEqual(mine.json().id, theirs.json().id);
      const x = await cardPayment(a, merchant, 'DB', '12.00');
      const y = await cardPayment(a, merchant, 'DB', '12.00');
      assert.notEqual(x.json().id, y.json().id);
    });

    it('a validation failure is stored and replayed too', async () => {
      const bad = await postPayment(a, merchant, { ...body, amount: 'x' }, { 'idempotency-key': 'order-4' });
      const again = await postPayment(a, merchant, { ...body, amount: 'x' }, { 'idempotency-key': 'order-4' });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(again.json().result, bad.json().result);
    });

    it('expires after 24 hours', async () => {
      const first = await postPayment(a, merchant, body, { 'idempotency-key': 'order-5' });
      a.clock.advance(24 * 60 * 60 * 1000 + 1);
      const later = await postPayment(a, merchant, body, { 'idempotency-key': 'order-5' });
      assert.notEqual(later.json().id, first.json().id);
    });

    it('rejects a malformed key', async () => {
      const response = await postPayment(a, merchant, body, { 'idempotency-key': 'x'.repeat(300) });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().result.parameterErrors[0].name, 'Idempotency-Key');
    });
  });
}
