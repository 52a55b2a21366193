import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { cardPayment, getPayment, referencePayment, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';

for (const database of testDatabases()) {
  describe(`payment life cycle on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });

    const codeOf = (r: { json(): any }) => r.json().result.code as string;

    it('a PA of 100.00 captured as 30.00 + 70.00 succeeds, a third capture of 0.01 is rejected', async () => {
      const pa = await cardPayment(t, merchant, 'PA', '100.00');
      assert.equal(pa.statusCode, 200, pa.body);
      assert.equal(codeOf(pa), '000.100.110');
      const id = pa.json().id;
      for (const amount of ['30.00', '70.00']) {
        const cp = await referencePayment(t, merchant, id, 'CP', amount);
        assert.equal(cp.statusCode, 200, cp.body);
        assert.match(codeOf(cp), SUCCESS_PATTERN);
        assert.equal(cp.json().referencedId, id);
        assert.equal(cp.json().amount, amount);
      }
      const third = await referencePayment(t, merchant, id, 'CP', '0.01');
      assert.equal(third.statusCode, 400);
      assert.equal(codeOf(third), '700.400.100');
    });

    it('a DB of 50.00 refunded 20.00 + 30.00 succeeds, a further 0.01 is rejected', async () => {
      const db = await cardPayment(t, merchant, 'DB', '50.00');
      const id = db.json().id;
      for (const amount of ['20.00', '30.00']) assert.match(codeOf(await referencePayment(t, merchant, id, 'RF', amount)), SUCCESS_PATTERN);
      const further = await referencePayment(t, merchant, id, 'RF', '0.01');
      assert.equal(further.statusCode, 400);
      assert.equal(codeOf(further), '700.400.200');
    });

    it('a reversed DB refuses refunds and a second reversal', async () => {
      const id = (await cardPayment(t, merchant, 'DB', '10.00')).json().id;
      const rv = await referencePayment(t, merchant, id, 'RV');
      assert.match(codeOf(rv), SUCCESS_PATTERN, rv.body);
      assert.equal(rv.json().amount, '10.00');
      assert.equal(codeOf(await referencePayment(t, merchant, id, 'RF', '1.00')), '700.400.200');
      assert.equal(codeOf(await referencePayment(t, merchant, id, 'RV')), '700.400.300');
    });

    it('a reversed PA cannot be captured', async () => {
      const id = (await cardPayment(t, merchant, 'PA', '10.00')).json().id;
      assert.match(codeOf(await referencePayment(t, merchant, id, 'RV')), SUCCESS_PATTERN);
      assert.equal(codeOf(await referencePayment(t, merchant, id, 'CP', '1.00')), '700.400.100');
    });

    it('sequence=FINAL closes a PA; numberOfCaptures bounds partial captures', async () => {
      const finalId = (await cardPayment(t, merchant, 'PA', '10.00')).json().id;
      assert.match(codeOf(await referencePayment(t, merchant, finalId, 'CP', '1.00', { sequence: 'FINAL' })), SUCCESS_PATTERN);
      assert.equal(codeOf(await referencePayment(t, merchant, finalId, 'CP', '1.00')), '700.400.100');
      const limitedId = (await cardPayment(t, merchant, 'PA', '10.00', { numberOfCaptures: '2' })).json().id;
      for (let i = 0; i < 2; i += 1) assert.match(codeOf(await referencePayment(t, merchant, limitedId, 'CP', '1.00')), SUCCESS_PATTERN);
      assert.equal(codeOf(await referencePayment(t, merchant, limitedId, 'CP', '1.00')), '700.400.100');
    });

    it('refers only to payments it may see, in their currency, of the right type', async () => {
      const other = await t.createMerchant('Other');
      const foreign = (await cardPayment(t, other, 'DB', '10.00')).json().id;
      const unknown = 'a'.repeat(32);
      for (const id of [foreign, unknown, 'not-an-id']) {
        const response = await referencePayment(t, merchant, id, 'RF', '1.00');
        assert.equal(response.statusCode, 404);
        assert.equal(codeOf(response), '700.400.580');
        assert.equal((await getPayment(t, merchant, id)).statusCode, 404);
      }
      const db = (await cardPayment(t, merchant, 'DB', '10.00')).json().id;
      assert.equal(codeOf(await referencePayment(t, merchant, db, 'RF', '1.00', { currency: 'USD' })), '700.100.500');
      assert.equal(codeOf(await referencePayment(t, merchant, db, 'CP', '1.00')), '700.400.510');
      const pa = (await cardPayment(t, merchant, 'PA', '10.00')).json().id;
      assert.equal(codeOf(await referencePayment(t, merchant, pa, 'RF', '1.00')), '700.400.520');
    });

    it('GET answers what the creating request answered, with the outcome', async () => {
      const created = await cardPayment(t, merchant, 'DB', '92.00', { merchantTransactionId: 'order-12345' });
      const fetched = await getPayment(t, merchant, created.json().id);
      assert.equal(fetched.statusCode, 200);
      const { timestamp: _t, ndc: _n, ...createdBody } = created.json();
      const { timestamp: _t2, ndc: _n2, ...fetchedBody } = fetched.json();
      assert.deepEqual(fetchedBody, createdBody);
      assert.equal(fetched.json().merchantTransactionId, 'order-12345');
      assert.match(fetched.json().shortId, /^\d{4}\.\d{4}\.\d{4}$/);
      assert.ok(fetched.json().descriptor.startsWith(fetched.json().shortId));
    });

    it('a decline answers 400 and is stored as rejected', async () => {
      const declined = await cardPayment(t, merchant, 'DB', '10.00', { 'card.number': '4000000000000002' });
      assert.equal(declined.statusCode, 400);
      assert.equal(codeOf(declined), '800.100.100');
      const { rows } = await t.storage.query<{ status: string }>('SELECT status FROM transactions WHERE id = $1', [declined.json().id]);
      assert.equal(rows[0]?.status, 'rejected');
      assert.equal(codeOf(await referencePayment(t, merchant, declined.json().id, 'RF', '1.00')), '700.300.200');
    });

    it('50 concurrent refunds of 1.00 on a DB of 10.00: exactly 10 succeed', async () => {
      const id = (await cardPayment(t, merchant, 'DB', '10.00')).json().id;
      const responses = await Promise.all(Array.from({ length: 50 }, () => referencePayment(t, merchant, id, 'RF', '1.00')));
      const codes = responses.map(codeOf);
      assert.equal(codes.filter((c) => SUCCESS_PATTERN.test(c)).length, 10, codes.join(' '));
      assert.equal(codes.filter((c) => c === '700.400.200').length, 40);
      const { rows } = await t.storage.query<{ refunded_minor: bigint }>('SELECT refunded_minor FROM transactions WHERE id = $1', [id]);
      assert.equal(rows[0]?.refunded_minor, 1000n);
    });

    it('50 concurrent captures of 1.00 on a PA of 10.00: exactly 10 succeed', async () => {
      const id = (await cardPayment(t, merchant, 'PA', '10.00')).json().id;
      const codes = (await Promise.all(Array.from({ length: 50 }, () => referencePayment(t, merchant, id, 'CP', '1.00')))).map(codeOf);
      assert.equal(codes.filter((c) => SUCCESS_PATTERN.test(c)).length, 10);
    });

    it('a capture the connector declines gives its amount back', async () => {
      const id = (await cardPayment(t, merchant, 'PA', '10.00')).json().id;
      const declined = await referencePayment(t, merchant, id, 'CP', '5.05');
      assert.equal(declined.statusCode, 400, declined.body);
      assert.match(codeOf(await referencePayment(t, merchant, id, 'CP', '10.00')), SUCCESS_PATTERN);
    });
  });
}
