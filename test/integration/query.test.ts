import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { cardPayment, postPayment, referencePayment, type Merchant } from '../support/payments.js';
import { bearer, startTestApp, type TestApp } from '../support/test-app.js';

for (const database of testDatabases()) {
  describe(`transaction query on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    let channel: Merchant;
    let other: Merchant;
    const ids: Record<string, string> = {};

    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn' } });
      merchant = await t.createMerchant('Shop');
      channel = await t.createChannel(merchant.entityId, 'Shop web');
      other = await t.createMerchant('Other');
      // 10:00 a PA, 11:00 its capture, next day a DB by SEPA and a refund of it, all on the channel.
      ids['pa'] = (await cardPayment(t, channel, 'PA', '10.00', { merchantTransactionId: 'order-0001' })).json().id;
      t.clock.advance(60 * 60 * 1000);
      ids['cp'] = (await referencePayment(t, channel, ids['pa']!, 'CP', '10.00', { merchantTransactionId: 'order-0001' })).json().id;
      t.clock.advance(24 * 60 * 60 * 1000);
      ids['db'] = (
        await postPayment(t, channel, {
          amount: '5.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'DIRECTDEBIT_SEPA', merchantTransactionId: 'order-0002',
          'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE23100000001234567890', 'bankAccount.bic': 'MARKDEF1100',
          'bankAccount.mandate.id': 'MANDATE-ONE', 'bankAccount.mandate.dateOfSignature': '2026-11-01',
        })
      ).json().id;
      t.clock.advance(60 * 1000);
      ids['rf'] = (await referencePayment(t, channel, ids['db']!, 'RF', '1.00')).json().id;
      ids['foreign'] = (await cardPayment(t, other, 'DB', '7.00', { merchantTransactionId: 'order-0001' })).json().id;
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const query = (who: Merchant, params: Record<string, string>, path = '/v1/query') =>
      t.app.inject({ method: 'GET', url: `${path}?${new URLSearchParams({ entityId: who.entityId, ...params })}`, headers: bearer(who.accessToken) });
    const idsOf = (response: { json(): any }) => (response.json().payments as { id: string }[]).map((p) => p.id);

    // One row per filter: the parameters and the ids expected, newest first.
    const filters: { name: string; params: () => Record<string, string>; expected: () => string[] }[] = [
      { name: 'merchantTransactionId', params: () => ({ merchantTransactionId: 'order-0001' }), expected: () => [ids['cp']!, ids['pa']!] },
      { name: 'merchantTransactionId and paymentTypes', params: () => ({ merchantTransactionId: 'order-0001', paymentTypes: 'PA' }), expected: () => [ids['pa']!] },
      { name: 'a one-day time frame', params: () => ({ 'date.from': '2026-11-22 00:00:00', 'date.to': '2026-11-23 00:00:00' }), expected: () => [ids['cp']!, ids['pa']!] },
      { name: 'the end of a time frame is exclusive', params: () => ({ 'date.from': '2026-11-22 00:00:00', 'date.to': '2026-11-22 11:00:00' }), expected: () => [ids['pa']!] },
      { name: 'time frame and paymentMethods', params: () => ({ 'date.from': '2026-11-22 00:00:00', 'date.to': '2026-11-24 00:00:00', paymentMethods: 'DD' }), expected: () => [ids['rf']!, ids['db']!] },
      { name: 'time frame and paymentTypes', params: () => ({ 'date.from': '2026-11-22 00:00:00', 'date.to': '2026-11-24 00:00:00', paymentTypes: 'RF,CP' }), expected: () => [ids['rf']!, ids['cp']!] },
    ];
    for (const row of filters) {
      it(`filters by ${row.name}`, async () => {
        const response = await query(channel, row.params());
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().result.code, '000.000.100');
        assert.deepEqual(idsOf(response), row.expected());
      });
    }

    it('finds by shortId', async () => {
      const shortId = (await t.app.inject({ method: 'GET', url: `/v1/payments/${ids['db']}?entityId=${channel.entityId}`, headers: bearer(channel.accessToken) })).json().shortId;
      assert.deepEqual(idsOf(await query(channel, { shortId })), [ids['db']]);
    });

    it('each payment is in the payment response form with its own result', async () => {
      const [payment] = (await query(channel, { merchantTransactionId: 'order-0002' })).json().payments;
      assert.equal(payment.id, ids['db']);
      assert.equal(payment.paymentType, 'DB');
      assert.equal(payment.amount, '5.00');
      assert.match(payment.result.code, /^000\.100\.110$/);
    });

    it('GET /v1/query/{id} returns the transaction, and its linked ones on request', async () => {
      assert.deepEqual(idsOf(await query(channel, {}, `/v1/query/${ids['pa']}`)), [ids['pa']]);
      assert.deepEqual(idsOf(await query(channel, { includeLinkedTransactions: 'true' }, `/v1/query/${ids['pa']}`)), [ids['pa'], ids['cp']]);
      assert.deepEqual(idsOf(await query(channel, { includeLinkedTransactions: 'true' }, `/v1/query/${ids['rf']}`)), [ids['rf'], ids['db']]);
    });

    it('a merchant token sees its channels; nobody sees another entity’s transactions', async () => {
      assert.deepEqual(idsOf(await query(merchant, { merchantTransactionId: 'order-0002' })), [ids['db']]);
      const foreign = await query(other, { merchantTransactionId: 'order-0002' });
      assert.equal(foreign.statusCode, 404);
      assert.equal(foreign.json().result.code, '700.400.580');
      assert.equal((await query(channel, {}, `/v1/query/${ids['foreign']}`)).statusCode, 404);
      assert.deepEqual(idsOf(await query(other, { merchantTransactionId: 'order-0001' })), [ids['foreign']]);
      const stolen = await t.app.inject({ method: 'GET', url: `/v1/query?entityId=${channel.entityId}&merchantTransactionId=order-0001`, headers: bearer(other.accessToken) });
      assert.equal(stolen.statusCode, 403);
    });

    // One row per invalid request: the parameters and the code expected.
    const invalid: { name: string; params: Record<string, string>; code: string; names?: string[] }[] = [
      { name: 'no criterion', params: {}, code: '200.300.404' },
      { name: 'date.from without date.to', params: { 'date.from': '2026-11-22 00:00:00' }, code: '200.300.404', names: ['date.to'] },
      { name: 'date.to without date.from', params: { 'date.to': '2026-11-22 00:00:00' }, code: '200.300.404', names: ['date.from'] },
      { name: 'merchantTransactionId with a time frame', params: { merchantTransactionId: 'order-0001', 'date.from': '2026-11-22 00:00:00', 'date.to': '2026-11-23 00:00:00' }, code: '200.300.404' },
      { name: 'a date in another form', params: { 'date.from': '2026-11-22', 'date.to': '2026-11-23' }, code: '200.300.404', names: ['date.from', 'date.to'] },
      { name: 'an unknown payment type', params: { merchantTransactionId: 'order-0001', paymentTypes: 'DB,XX' }, code: '200.300.404', names: ['paymentTypes'] },
      { name: 'an unknown payment method', params: { merchantTransactionId: 'order-0001', paymentMethods: 'CC,ZZ' }, code: '200.300.404', names: ['paymentMethods'] },
      { name: 'limit below 100', params: { merchantTransactionId: 'order-0001', limit: '99' }, code: '200.300.404', names: ['limit'] },
      { name: 'limit above 500', params: { merchantTransactionId: 'order-0001', limit: '501' }, code: '200.300.404', names: ['limit'] },
      { name: 'an unknown parameter', params: { merchantTransactionId: 'order-0001', merchantTransactionID: 'x' }, code: '200.300.404', names: ['merchantTransactionID'] },
    ];
    for (const row of invalid) {
      it(`refuses ${row.name}`, async () => {
        const response = await query(channel, row.params);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().result.code, row.code);
        const named = (response.json().result.parameterErrors as { name: string }[]).map((e) => e.name);
        for (const name of row.names ?? []) assert.ok(named.includes(name), `${name} in ${named.join(',')}`);
      });
    }

    it('honours limit within 100 to 500', async () => {
      for (let i = 0; i < 105; i += 1) await cardPayment(t, other, 'DB', '1.00', { merchantTransactionId: 'bulk-order' });
      assert.equal(idsOf(await query(other, { merchantTransactionId: 'bulk-order' })).length, 100, 'default 100');
      assert.equal(idsOf(await query(other, { merchantTransactionId: 'bulk-order', limit: '500' })).length, 105);
    });
  });
}
