import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SettlementRecord } from '../../src/connectors/connector.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, type Merchant } from '../support/payments.js';
import { fixedSource, ingestDay } from '../support/settlement.js';
import { json, withAppAndMerchant, type TestApp } from '../support/test-app.js';

function record(id: string, fields: Partial<SettlementRecord>): SettlementRecord {
  return {
    recordId: id, type: 'SETTLED', status: 'SUCCESS', settlementDate: '2026-11-23', transactionDate: new Date('2026-11-22T10:00:00Z'),
    clearingInstitute: 'Hand-made Acquirer', batchId: 'HAND-2026-11-23', paymentType: 'DB', amountMinor: 1500n, currency: 'EUR',
    settlementAmountMinor: 1500n, settlementCurrency: 'EUR', fxRate: '1', feeMinor: 20n, feeCurrency: 'EUR', connectorReferences: {},
    ...fields,
  };
}

async function paidWith(t: TestApp, merchant: Merchant, amount: string, merchantTransactionId: string): Promise<string> {
  const response = await cardPayment(t, merchant, 'DB', amount, { merchantTransactionId });
  assert.equal(response.statusCode, 200, response.body);
  return json(response)['id'] as string;
}

for (const database of testDatabases()) {
  describe(`matching settlement records (${database.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), {}, (app, m) => {
      t = app;
      merchant = m;
    });

    it('MATCHED by reference or by merchantTransactionId, amount and day; MULTIPLE_MATCHES; NOT_MATCHED', async () => {
      const unique = await paidWith(t, merchant, '15.00', 'order-unique-0001');
      const twiceA = await paidWith(t, merchant, '15.00', 'order-twice-00001');
      const twiceB = await paidWith(t, merchant, '15.00', 'order-twice-00001');
      const { rows } = await t.storage.query<{ ref: string }>(`SELECT connector_references ->> 'ConnectorTxID1' AS ref FROM transactions WHERE id = $1`, [twiceA]);
      const source = fixedSource('simulator', [
        record('by-reference', { connectorReferences: { ConnectorTxID1: rows[0]!.ref } }),
        record('by-fallback', { merchantTransactionId: 'order-unique-0001' }),
        record('other-amount', { merchantTransactionId: 'order-unique-0001', amountMinor: 1501n }),
        record('twice', { merchantTransactionId: 'order-twice-00001' }),
        record('twice-charged-back', { type: 'CHARGEBACK', merchantTransactionId: 'order-twice-00001', resultCode: '000.100.220' }),
        record('unknown', { connectorReferences: { ConnectorTxID1: 'SIM-no-such-transaction' } }),
      ]);
      // The day the simulator itself would settle is another: only the hand-made file counts here.
      const summary = await ingestDay(t, '2026-11-20', [source]);
      assert.deepEqual([summary.matched, summary.multipleMatches, summary.notMatched, summary.chargebacks], [2, 2, 2, 0]);
      const { rows: stored } = await t.storage.query<{ record_id: string; matching_status: string; matched_ids: string[] }>(
        'SELECT record_id, matching_status, matched_ids FROM settlement_records ORDER BY record_id',
      );
      const byId = Object.fromEntries(stored.map((r) => [r.record_id, [r.matching_status, r.matched_ids]]));
      assert.deepEqual(byId['by-reference'], ['MATCHED', [twiceA]]);
      assert.deepEqual(byId['by-fallback'], ['MATCHED', [unique]]);
      assert.deepEqual(byId['other-amount'], ['NOT_MATCHED', []]);
      assert.deepEqual(byId['twice'], ['MULTIPLE_MATCHES', [twiceA, twiceB].sort()]);
      assert.deepEqual(byId['twice-charged-back'], ['MULTIPLE_MATCHES', [twiceA, twiceB].sort()], 'no chargeback on a guess');
      assert.deepEqual(byId['unknown'], ['NOT_MATCHED', []]);
    });
  });
}
