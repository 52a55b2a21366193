import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { cardPayment, getPayment, referencePayment, type Merchant } from '../support/payments.js';
import { activeWebhook, DAY_MS, ingestDay, notificationsOf } from '../support/settlement.js';
import { json, withAppAndMerchant, type TestApp } from '../support/test-app.js';

interface RecordRow {
  record_type: string;
  status: string;
  matching_status: string;
  matched_ids: string[];
  amount_minor: bigint;
  currency: string;
  settlement_amount_minor: bigint;
  settlement_currency: string;
  fx_rate: string;
  fee_minor: bigint;
  chargeback_id: string | null;
  merchant_id: string | null;
}

async function recordsOf(t: TestApp, day: string): Promise<RecordRow[]> {
  const { rows } = await t.storage.query<RecordRow>(
    `SELECT record_type, status, matching_status, matched_ids, amount_minor, currency, settlement_amount_minor, settlement_currency, fx_rate, fee_minor, chargeback_id, merchant_id
       FROM settlement_records WHERE settlement_date = $1::date ORDER BY amount_minor, record_type`,
    [day],
  );
  return rows;
}

async function paid(t: TestApp, merchant: Merchant, type: string, amount: string, extra: Record<string, string> = {}): Promise<string> {
  const response = await cardPayment(t, merchant, type, amount, extra);
  assert.equal(response.statusCode, 200, response.body);
  return json(response)['id'] as string;
}

for (const database of testDatabases()) {
  describe(`settlement of the test system's payments (${database.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), {}, (app, m) => {
      t = app;
      merchant = m;
    });
    const ids: Record<string, string> = {};

    it('settles the day before: debits, captures, credits and refunds, a FAILED one, FX and a batch fee', async () => {
      await activeWebhook(t, merchant.entityId);
      ids['plain'] = await paid(t, merchant, 'DB', '10.00');
      ids['failed'] = await paid(t, merchant, 'DB', '20.13');
      ids['chargeback'] = await paid(t, merchant, 'DB', '30.66');
      ids['reversed'] = await paid(t, merchant, 'DB', '40.67');
      ids['asked'] = await paid(t, merchant, 'DB', '12.00', { chargebackResultCode: '000.100.220' });
      ids['usd'] = await paid(t, merchant, 'DB', '50.00', { currency: 'USD' });
      ids['pa'] = await paid(t, merchant, 'PA', '60.00');
      const capture = await referencePayment(t, merchant, ids['pa']!, 'CP', '60.00');
      assert.equal(capture.statusCode, 200, capture.body);
      const refund = await referencePayment(t, merchant, ids['plain']!, 'RF', '2.00');
      assert.equal(refund.statusCode, 200, refund.body);

      t.clock.advance(DAY_MS);
      const summary = await ingestDay(t, '2026-11-23');
      // DB ×6, CP, RF settled, plus one batch fee; nothing for the PA.
      assert.equal(summary.records, 9);
      assert.equal(summary.inserted, 9);
      assert.equal(summary.matched, 8);
      assert.equal(summary.notMatched, 1, 'the batch fee names no transaction');
      const records = await recordsOf(t, '2026-11-23');
      const failed = records.find((r) => r.amount_minor === 2013n)!;
      assert.equal(failed.status, 'FAILED');
      assert.equal(failed.fee_minor, 0n);
      const plain = records.find((r) => r.amount_minor === 1000n)!;
      assert.deepEqual([plain.status, plain.matching_status, plain.matched_ids, plain.fee_minor], ['SUCCESS', 'MATCHED', [ids['plain']], 10n + 15n]);
      const usd = records.find((r) => r.currency === 'USD')!;
      assert.deepEqual([usd.settlement_currency, usd.fx_rate, usd.settlement_amount_minor], ['EUR', '0.92', 4600n]);
      const fee = records.find((r) => r.record_type === 'FEE')!;
      assert.deepEqual([fee.matching_status, fee.merchant_id, fee.amount_minor], ['NOT_MATCHED', merchant.entityId, 100n]);
      assert.ok(records.every((r) => r.merchant_id === merchant.entityId));
    });

    it('turns chargebacks two days later into CB transactions with notifications, and the refundable amount shrinks', async () => {
      t.clock.advance(DAY_MS);
      const summary = await ingestDay(t, '2026-11-24');
      assert.equal(summary.chargebacks, 3);
      const chargebacks = (await recordsOf(t, '2026-11-24')).filter((r) => r.record_type === 'CHARGEBACK');
      assert.equal(chargebacks.length, 3);
      for (const record of chargebacks) {
        assert.equal(record.matching_status, 'MATCHED');
        const cb = json(await getPayment(t, merchant, record.chargeback_id!));
        assert.equal(cb['paymentType'], 'CB');
        assert.equal(cb['referencedId'], record.matched_ids[0]);
        assert.equal(await notificationsOf(t, record.chargeback_id!), 1);
      }
      const asked = chargebacks.find((r) => r.amount_minor === 1200n)!;
      assert.equal(json(await getPayment(t, merchant, asked.chargeback_id!))['result'].code, '000.100.220');
      const refused = await referencePayment(t, merchant, ids['chargeback']!, 'RF', '1.00');
      assert.equal(json(refused)['result'].code, '700.400.200', 'a charged back payment cannot be refunded');
    });

    it('reverses a chargeback a day later with a CR, and the payment is refundable again', async () => {
      t.clock.advance(DAY_MS);
      const summary = await ingestDay(t, '2026-11-25');
      assert.equal(summary.chargebacks, 1);
      const [reversal] = (await recordsOf(t, '2026-11-25')).filter((r) => r.record_type === 'CHARGEBACK_REVERSAL');
      const cr = json(await getPayment(t, merchant, reversal!.chargeback_id!));
      assert.deepEqual([cr['paymentType'], cr['referencedId'], cr['amount']], ['CR', ids['reversed'], '40.67']);
      assert.equal(await notificationsOf(t, reversal!.chargeback_id!), 1);
      const refund = await referencePayment(t, merchant, ids['reversed']!, 'RF', '40.67');
      assert.equal(refund.statusCode, 200, refund.body);
    });

    it('ingesting a day again changes nothing', async () => {
      const before = await t.storage.query<{ n: number }>(`SELECT (SELECT count(*) FROM transactions)::int + (SELECT count(*) FROM notifications)::int AS n`);
      const again = await ingestDay(t, '2026-11-24');
      assert.equal(again.records, 3);
      assert.deepEqual([again.inserted, again.chargebacks], [0, 0]);
      const after = await t.storage.query<{ n: number }>(`SELECT (SELECT count(*) FROM transactions)::int + (SELECT count(*) FROM notifications)::int AS n`);
      assert.equal(after.rows[0]!.n, before.rows[0]!.n);
      assert.equal((await recordsOf(t, '2026-11-24')).length, 3);
    });
  });
}
