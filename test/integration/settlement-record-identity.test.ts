import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { SettlementRecord } from '../../src/connectors/connector.js';
import { writeReconciliationFile } from '../../src/operations/settlement/write-reconciliation-file.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, type Merchant } from '../support/payments.js';
import { DAY_MS, fixedSource, ingestDay } from '../support/settlement.js';
import { bearer, json, withAppAndMerchant, type TestApp } from '../support/test-app.js';

/**
 * Issue 34 item 8: every reconciliation record carries a merchantTransactionId (the merchant's,
 * or generated and stable for a payment across runs), the payment's merchantInvoiceId, and a
 * SettlementFileFormat that is never cut to its 32 characters.
 */

/** A hand-made acquirer line for the merchant that matches nothing. */
function unmatchedLine(merchantId: string, recordId: string): SettlementRecord {
  return {
    recordId, type: 'SETTLED', status: 'SUCCESS', settlementDate: '2026-11-23', transactionDate: new Date('2026-11-22T08:00:00Z'),
    clearingInstitute: 'Hand-made Acquirer', batchId: `HAND-${recordId}`, paymentType: 'DB', amountMinor: 700n, currency: 'EUR',
    settlementAmountMinor: 700n, settlementCurrency: 'EUR', fxRate: '1', feeMinor: 0n, feeCurrency: 'EUR',
    connectorReferences: { ConnectorTxID1: `NOBODY-${recordId}` }, merchantEntityId: merchantId,
  };
}

type ReportRecord = Record<string, any>;

for (const database of testDatabases()) {
  describe(`reconciliation records' identity (${database.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    const filesDir = mkdtempSync(join(tmpdir(), 'settlement-identity-'));
    after(() => rmSync(filesDir, { recursive: true, force: true }));
    withAppAndMerchant(() => database.open(), {}, (app, m) => {
      t = app;
      merchant = m;
    });

    /** Every record of the merchant's settlement day, through the detail report. */
    async function recordsOfDay(day: string): Promise<ReportRecord[]> {
      const get = (path: string) => t.app.inject({ method: 'GET', url: `${path}&entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
      const summary = await get(`/reports/v1/reconciliations/aggregations?date.from=${day}&date.to=${day}`);
      assert.equal(summary.statusCode, 200, summary.body);
      const records: ReportRecord[] = [];
      for (const aggregation of json(summary)['aggregations'] as { id: string }[]) {
        const detail = await get(`/reports/v1/reconciliations/aggregations/${aggregation.id}?sortValue=SettlementTxDate`);
        assert.equal(detail.statusCode, 200, detail.body);
        records.push(...(json(detail)['records'] as ReportRecord[]));
      }
      return records;
    }
    const ofPayment = (records: ReportRecord[], paymentId: string, recordType = 'SETTLED') =>
      records.find((r) => r.payment?.id === paymentId && r.recordType === recordType);

    let sentIds: string;
    let generatedFor: string;

    it('keeps the merchant\'s merchantTransactionId and merchantInvoiceId, and generates the payment\'s id where none was sent', async () => {
      const sent = await cardPayment(t, merchant, 'DB', '12.00', { merchantTransactionId: 'order-2026-0001', merchantInvoiceId: 'invoice-2034-17' });
      assert.equal(sent.statusCode, 200, sent.body);
      sentIds = json(sent)['id'];
      // Cents .66: the test system charges it back two days later (docs/settlement.md).
      const bare = await cardPayment(t, merchant, 'DB', '30.66');
      assert.equal(bare.statusCode, 200, bare.body);
      generatedFor = json(bare)['id'];
      t.clock.advance(DAY_MS);
      await ingestDay(t, '2026-11-23');
      const records = await recordsOfDay('2026-11-23');

      const withIds = ofPayment(records, sentIds)!;
      assert.equal(withIds.merchantTransactionId, 'order-2026-0001');
      assert.equal(withIds.merchantInvoiceId, 'invoice-2034-17');
      const generated = ofPayment(records, generatedFor)!;
      assert.equal(generated.merchantTransactionId, generatedFor, 'generated: the payment\'s own id');
      assert.equal('merchantInvoiceId' in generated, false, 'no invoice id was sent');
      const fee = records.find((r) => r.recordType === 'FEE')!;
      assert.match(fee.merchantTransactionId, /^[0-9a-f]{32}$/, 'a fee line has one too: its record\'s id');
      assert.ok(records.every((r) => typeof r.merchantTransactionId === 'string' && r.merchantTransactionId.length >= 8), JSON.stringify(records));
      assert.ok(records.every((r) => r.settlement.format === 'simulator-settlement'));

      // The same day settled again: every record keeps its merchantTransactionId.
      await ingestDay(t, '2026-11-23');
      const again = await recordsOfDay('2026-11-23');
      assert.deepEqual(again.map((r) => [r.settlement.id, r.merchantTransactionId]).sort(), records.map((r) => [r.settlement.id, r.merchantTransactionId]).sort());
    });

    it('gives a later record of the same payment (its chargeback) the same generated merchantTransactionId', async () => {
      t.clock.advance(DAY_MS);
      await ingestDay(t, '2026-11-24');
      const chargeback = ofPayment(await recordsOfDay('2026-11-24'), generatedFor, 'CHARGEBACK');
      assert.ok(chargeback, 'the .66 payment was charged back');
      assert.equal(chargeback.merchantTransactionId, generatedFor);
    });

    it('writes SettlementFileFormat whole, whatever the length of the connector\'s id', async () => {
      // external-test-platform-settlement has 33 characters: until issue 34 the file said "external-test-platform-settlemen".
      const longId = 'an-acquirer-with-a-name-of-forty-chars-x';
      assert.equal(longId.length, 40);
      await ingestDay(t, '2026-11-23', [
        fixedSource('external-test-platform', [unmatchedLine(merchant.entityId, 'ETP-LINE-1')]),
        fixedSource(longId, [unmatchedLine(merchant.entityId, 'LONG-LINE-1')]),
      ]);
      const records = await recordsOfDay('2026-11-23');
      const formatOf = (recordId: string) => records.find((r) => r.settlement.id === recordId)!.settlement.format as string;
      assert.equal(formatOf('ETP-LINE-1'), 'external-test-platform');
      assert.match(formatOf('LONG-LINE-1'), /^settlement-[0-9a-f]{21}$/);
      const unmatched = records.find((r) => r.settlement.id === 'ETP-LINE-1')!;
      assert.equal(unmatched.matchedTransactions.status, 'NOT_MATCHED');
      assert.match(unmatched.merchantTransactionId, /^[0-9a-f]{32}$/, 'a line that matched nothing: its record\'s id');

      const written = await writeReconciliationFile(t.storage, filesDir, merchant.entityId, '2026-11-23');
      const [header, ...rows] = parse(readFileSync(written.path, 'utf8'), { delimiter: ';' }) as string[][];
      const formats = new Set(rows.map((row) => row[header!.indexOf('SettlementFileFormat')]));
      assert.deepEqual([...formats].sort(), ['external-test-platform', formatOf('LONG-LINE-1'), 'simulator-settlement'].sort());
    });
  });
}
