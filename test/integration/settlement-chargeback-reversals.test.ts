import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { SettlementRecord } from '../../src/connectors/connector.js';
import { randomIds } from '../../src/domain/ids.js';
import { ingestSettlement } from '../../src/operations/settlement/ingest-settlement.js';
import { runSettlementDay } from '../../src/operations/settlement/run-settlement-day.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, referencePayment, type Merchant } from '../support/payments.js';
import { resolutionWorker } from '../support/resolution.js';
import { fixedSource } from '../support/settlement.js';
import { json, withAppAndMerchant, type TestApp } from '../support/test-app.js';

/** A record of a hand-made settlement file about the transaction with this ConnectorTxID1. */
function recordOf(recordId: string, type: SettlementRecord['type'], reference: string, amountMinor: bigint): SettlementRecord {
  return {
    recordId, type, status: 'SUCCESS', settlementDate: '2026-11-22', transactionDate: new Date('2026-11-22T10:00:00Z'),
    clearingInstitute: 'Hand-made Acquirer', batchId: 'HAND-2026-11-22', paymentType: 'DB', amountMinor, currency: 'EUR',
    settlementAmountMinor: amountMinor, settlementCurrency: 'EUR', fxRate: '1', feeMinor: 0n, feeCurrency: 'EUR',
    connectorReferences: { ConnectorTxID1: reference }, resultCode: '000.100.220', reasonCode: '20',
  };
}

async function paymentRow(t: TestApp, id: string): Promise<{ connectorId: string; reference: string; refundedMinor: bigint }> {
  const { rows } = await t.storage.query<{ connector_id: string; reference: string; refunded_minor: bigint }>(
    `SELECT connector_id, connector_references ->> 'ConnectorTxID1' AS reference, refunded_minor FROM transactions WHERE id = $1`,
    [id],
  );
  return { connectorId: rows[0]!.connector_id, reference: rows[0]!.reference, refundedMinor: BigInt(rows[0]!.refunded_minor) };
}

for (const database of testDatabases()) {
  describe(`chargeback reversals and the refundable amount (${database.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    const filesDir = mkdtempSync(join(tmpdir(), 'settle-reversals-'));
    after(() => rmSync(filesDir, { recursive: true, force: true }));
    withAppAndMerchant(() => database.open(), {}, (app, m) => {
      t = app;
      merchant = m;
    });

    it('gives back what the chargeback took once: a refund of the whole amount is refused with 700.400.200', async () => {
      const debit = await cardPayment(t, merchant, 'DB', '40.00', { testMode: 'EXTERNAL' });
      assert.equal(debit.statusCode, 200, debit.body);
      const paymentId = json(debit)['id'] as string;
      const refund = await referencePayment(t, merchant, paymentId, 'RF', '20.00');
      assert.equal(refund.statusCode, 200, refund.body);
      const payment = await paymentRow(t, paymentId);
      const file = fixedSource(payment.connectorId, [
        recordOf('CB-1', 'CHARGEBACK', payment.reference, 4000n),
        recordOf('CR-1', 'CHARGEBACK_REVERSAL', payment.reference, 4000n),
        recordOf('CR-2', 'CHARGEBACK_REVERSAL', payment.reference, 4000n),
      ]);
      // `settlement run` of that (ended) day, with the hand-made file as the acquirer's.
      const settle = () => runSettlementDay({ storage: t.storage, clock: t.clock, ids: randomIds }, [file], filesDir, '2026-11-21');
      const run = await settle();
      assert.equal(run.ingest.chargebacks, 2, 'one CB and one CR; the second reversal reverses nothing');
      assert.equal((await paymentRow(t, paymentId)).refundedMinor, 2000n, 'the refund of 20.00 still counts');
      const again = await settle();
      assert.equal(again.ingest.chargebacks, 0);
      const tooMuch = await referencePayment(t, merchant, paymentId, 'RF', '40.00');
      assert.equal(json(tooMuch)['result'].code, '700.400.200', tooMuch.body);
      const rest = await referencePayment(t, merchant, paymentId, 'RF', '20.00');
      assert.equal(rest.statusCode, 200, rest.body);
      const { rows } = await t.storage.query<{ n: number }>(`SELECT count(*)::int AS n FROM transactions WHERE parent_id = $1 AND payment_type = 'CR'`, [paymentId]);
      assert.equal(rows[0]!.n, 1);
    });

    it('a refund declined after a chargeback took the rest gives back nothing the chargeback lost: 40.00 paid, 40.00 charged back, nothing refundable', async () => {
      const debit = await cardPayment(t, merchant, 'DB', '40.00');
      const paymentId = json(debit)['id'] as string;
      // 9.98: the acquirer does not answer in time; the status query later says declined.
      const refund = json(await referencePayment(t, merchant, paymentId, 'RF', '9.98'));
      assert.equal(refund['result'].code, '000.200.000');
      const payment = await paymentRow(t, paymentId);
      assert.equal(payment.refundedMinor, 998n, 'the pending refund holds its amount');
      const file = fixedSource(payment.connectorId, [recordOf('CB-PENDING-1', 'CHARGEBACK', payment.reference, 4000n)]);
      await runSettlementDay({ storage: t.storage, clock: t.clock, ids: randomIds }, [file], filesDir, '2026-11-21');
      assert.equal((await paymentRow(t, paymentId)).refundedMinor, 4000n);
      const jobs = resolutionWorker(t);
      t.clock.advance(6 * 60_000);
      await jobs.drain();
      t.clock.advance(1);
      await jobs.drain();
      const { rows } = await t.storage.query<{ result_code: string }>('SELECT result_code FROM transactions WHERE id = $1', [refund['id']]);
      assert.notEqual(rows[0]!.result_code, '000.200.000', 'the refund was resolved');
      assert.equal((await paymentRow(t, paymentId)).refundedMinor, 4000n, 'the declined refund\'s 9.98 goes to the chargeback, not back to the refundable amount');
      const more = await referencePayment(t, merchant, paymentId, 'RF', '9.00');
      assert.equal(json(more)['result'].code, '700.400.200', more.body);
      const taken = await t.storage.query<{ taken: bigint }>(`SELECT refundable_taken_minor AS taken FROM settlement_records WHERE record_id = 'CB-PENDING-1'`);
      assert.equal(BigInt(taken.rows[0]!.taken), 4000n, 'what its reversal would give back');
    });

    it('a reversal gives back first to another chargeback that could not take its whole amount', async () => {
      const debit = await cardPayment(t, merchant, 'DB', '40.00');
      const paymentId = json(debit)['id'] as string;
      const payment = await paymentRow(t, paymentId);
      const settle = (records: SettlementRecord[]) =>
        runSettlementDay({ storage: t.storage, clock: t.clock, ids: randomIds }, [fixedSource(payment.connectorId, records)], filesDir, '2026-11-21');
      await settle([recordOf('TWO-CB-1', 'CHARGEBACK', payment.reference, 3000n)]);
      await settle([recordOf('TWO-CB-2', 'CHARGEBACK', payment.reference, 3000n)]); // takes the 10.00 left: 20.00 short
      await settle([recordOf('TWO-CR-1', 'CHARGEBACK_REVERSAL', payment.reference, 3000n)]); // reverses the first: 30.00 free
      assert.equal((await paymentRow(t, paymentId)).refundedMinor, 3000n, '20.00 to the second chargeback, 10.00 refundable');
      assert.equal(json(await referencePayment(t, merchant, paymentId, 'RF', '10.01'))['result'].code, '700.400.200');
      assert.equal((await referencePayment(t, merchant, paymentId, 'RF', '10.00')).statusCode, 200);
    });

    it('concurrent runs of files that each reverse the same chargeback reverse it once', async () => {
      const debit = await cardPayment(t, merchant, 'DB', '40.00');
      const paymentId = json(debit)['id'] as string;
      const payment = await paymentRow(t, paymentId);
      const deps = { storage: t.storage, clock: t.clock, ids: randomIds };
      const ingest = (records: SettlementRecord[]) => ingestSettlement(deps, [fixedSource(payment.connectorId, records)], '2026-11-21');
      await ingest([recordOf('RACE-CB', 'CHARGEBACK', payment.reference, 4000n)]);
      const files = ['RACE-CR-A', 'RACE-CR-B', 'RACE-CR-C'].map((id) => [recordOf(id, 'CHARGEBACK_REVERSAL', payment.reference, 4000n)]);
      const outcomes = await Promise.allSettled([...files, ...files].map((file) => ingest(file)));
      // A run the database refused (the unique reversal) is simply run again by the daily job.
      assert.ok(outcomes.some((o) => o.status === 'fulfilled'));
      const { rows } = await t.storage.query<{ n: number }>(`SELECT count(*)::int AS n FROM transactions WHERE parent_id = $1 AND payment_type = 'CR'`, [paymentId]);
      assert.equal(rows[0]!.n, 1);
      assert.equal((await paymentRow(t, paymentId)).refundedMinor, 0n);
    });
  });
}
