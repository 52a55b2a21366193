import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SettlementRecord } from '../../src/connectors/connector.js';
import type { CreatedEntity } from '../../src/operations/admin/create-entity.js';
import { testDatabases } from '../support/databases.js';
import { fixedSource, ingestDay } from '../support/settlement.js';
import { bearer, json, withAppAndMerchant, type TestApp } from '../support/test-app.js';

const RECORDS = 150;

/** A hand-made acquirer's day for the merchant: 150 settled lines at shuffled times, one chargeback that matches nothing. */
function acquirerDay(merchantId: string): SettlementRecord[] {
  return Array.from({ length: RECORDS }, (_, i) => ({
    recordId: `HAND-${i}`, type: i === 7 ? 'CHARGEBACK' : 'SETTLED', status: 'SUCCESS', settlementDate: '2026-11-23',
    // 37 is prime to 150: every minute of the day's first 150 appears once, out of ingest order.
    transactionDate: new Date(Date.UTC(2026, 10, 22, 0, (i * 37) % RECORDS)),
    clearingInstitute: 'Hand-made Acquirer', batchId: 'HAND-2026-11-23-EUR', paymentType: 'DB', amountMinor: 1000n + BigInt(i), currency: 'EUR',
    settlementAmountMinor: 1000n + BigInt(i), settlementCurrency: 'EUR', fxRate: '1', feeMinor: 10n, feeCurrency: 'EUR',
    connectorReferences: { ConnectorTxID1: `HAND-TX-${i}` }, merchantEntityId: merchantId, ...(i === 7 ? { resultCode: '000.100.221' } : {}),
  }));
}

for (const database of testDatabases()) {
  describe(`settlement reports (${database.name})`, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    let other: CreatedEntity;
    let aggregationId: string;
    withAppAndMerchant(() => database.open(), {}, (app, m) => {
      t = app;
      merchant = m;
    });
    const get = (who: CreatedEntity, path: string) =>
      t.app.inject({ method: 'GET', url: `${path}${path.includes('?') ? '&' : '?'}entityId=${who.entityId}`, headers: bearer(who.accessToken) });

    it('summarises a merchant\'s batches per settlement day with totals', async () => {
      other = await t.createMerchant('Other shop');
      await ingestDay(t, '2026-11-23', [fixedSource('hand-acquirer', acquirerDay(merchant.entityId))]);
      const response = await get(merchant, '/reports/v1/reconciliations/aggregations?date.from=2026-11-01&date.to=2026-11-30');
      assert.equal(response.statusCode, 200, response.body);
      const [aggregation, ...more] = json(response)['aggregations'];
      assert.equal(more.length, 0);
      aggregationId = aggregation.id;
      const settled = Array.from({ length: RECORDS }, (_, i) => (i === 7 ? 0 : 1000 + i)).reduce((a, b) => a + b, 0);
      assert.deepEqual(aggregation.totals, {
        settledAmount: (settled / 100).toFixed(2), chargebackAmount: '10.07', chargebackReversalAmount: '0.00', feeAmount: '15.00',
        netAmount: ((settled - 1007 - 1500) / 100).toFixed(2),
      });
      assert.deepEqual([aggregation.settlementDate, aggregation.currency, aggregation.numberOfRecords], ['2026-11-23', 'EUR', RECORDS]);
      const outside = await get(merchant, '/reports/v1/reconciliations/aggregations?date.from=2026-11-24&date.to=2026-11-30&currency=EUR');
      assert.deepEqual(json(outside)['aggregations'], []);
      const otherCurrency = await get(merchant, '/reports/v1/reconciliations/aggregations?date.from=2026-11-01&date.to=2026-11-30&currency=USD');
      assert.deepEqual(json(otherCurrency)['aggregations'], []);
    });

    it('answers the detail sorted by SettlementTxDate in either order and case', async () => {
      for (const order of ['ASC', 'asc', 'DESC', 'desc']) {
        const response = await get(merchant, `/reports/v1/reconciliations/aggregations/${aggregationId}?sortValue=SettlementTxDate&sortOrder=${order}`);
        assert.equal(response.statusCode, 200, response.body);
        const times = (json(response)['records'] as { presentmentDate: string }[]).map((r) => r.presentmentDate);
        assert.equal(times.length, RECORDS);
        const sorted = [...times].sort();
        assert.deepEqual(times, order.toUpperCase() === 'ASC' ? sorted : sorted.reverse());
      }
      const detail = json(await get(merchant, `/reports/v1/reconciliations/aggregations/${aggregationId}`));
      const chargeback = detail['records'].find((r: any) => r.recordType === 'CHARGEBACK');
      assert.deepEqual(chargeback.result, { code: '000.100.221', description: 'Merchandise Not Received' });
      assert.equal(chargeback.matchedTransactions.status, 'NOT_MATCHED');
      const bad = await get(merchant, `/reports/v1/reconciliations/aggregations/${aggregationId}?sortOrder=UP`);
      assert.equal(bad.statusCode, 400);
      assert.equal(json(bad)['result'].parameterErrors[0].name, 'sortOrder');
    });

    it('pages the v2 detail 100 records a page with the number of pages', async () => {
      const first = json(await get(merchant, `/reports/v2/reconciliations/aggregations/${aggregationId}?pageNo=1&sortValue=SettlementTxDate&sortOrder=asc`));
      const second = json(await get(merchant, `/reports/v2/reconciliations/aggregations/${aggregationId}?pageNo=2&sortValue=SettlementTxDate&sortOrder=asc`));
      const third = json(await get(merchant, `/reports/v2/reconciliations/aggregations/${aggregationId}?pageNo=3`));
      assert.deepEqual([first['pages'], first['records'].length, second['records'].length, third['records'].length], [2, 100, 50, 0]);
      const times = [...first['records'], ...second['records']].map((r: any) => r.presentmentDate);
      assert.deepEqual(times, [...times].sort());
      const bad = await get(merchant, `/reports/v2/reconciliations/aggregations/${aggregationId}?pageNo=0`);
      assert.equal(json(bad)['result'].parameterErrors[0].name, 'pageNo');
    });

    it('shows another merchant nothing', async () => {
      const summary = await get(other, '/reports/v1/reconciliations/aggregations?date.from=2026-11-01&date.to=2026-11-30');
      assert.deepEqual(json(summary)['aggregations'], []);
      const detail = await get(other, `/reports/v1/reconciliations/aggregations/${aggregationId}`);
      assert.equal(detail.statusCode, 404);
      const paged = await get(other, `/reports/v2/reconciliations/aggregations/${aggregationId}?pageNo=1`);
      assert.equal(paged.statusCode, 404);
    });

    it('asks for the summary\'s dates', async () => {
      const response = await get(merchant, '/reports/v1/reconciliations/aggregations?date.from=2026-11-01');
      assert.equal(response.statusCode, 400);
      assert.equal(json(response)['result'].parameterErrors[0].name, 'date.to');
    });
  });
}
