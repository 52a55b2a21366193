import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { SettlementRecord } from '../../../src/connectors/connector.js';
import { silentLogger } from '../../../src/jobs/job-types.js';
import { JobWorker } from '../../../src/jobs/job-worker.js';
import { settleDayHandler } from '../../../src/jobs/settle-day.js';
import { runSettlementDay } from '../../../src/operations/settlement/run-settlement-day.js';
import { testDatabases } from '../../support/databases.js';
import { deltas, valuesOf } from '../../support/metrics.js';
import { cardPayment, type Merchant } from '../../support/payments.js';
import { fixedSource } from '../../support/settlement.js';
import { withAppAndMerchant, type TestApp } from '../../support/test-app.js';

const DAY = '2026-11-21';

function settled(recordId: string, reference: string, amountMinor = 2500n): SettlementRecord {
  return {
    recordId, type: 'SETTLED', status: 'SUCCESS', settlementDate: DAY, transactionDate: new Date(`${DAY}T10:00:00Z`),
    clearingInstitute: 'Hand-made Acquirer', batchId: `HAND-${DAY}`, paymentType: 'DB', amountMinor, currency: 'EUR',
    settlementAmountMinor: amountMinor, settlementCurrency: 'EUR', fxRate: '1', feeMinor: 0n, feeCurrency: 'EUR',
    connectorReferences: { ConnectorTxID1: reference }, resultCode: '000.100.220',
  };
}

for (const database of testDatabases()) {
  describe(`settlement records ingested are counted by connector and outcome on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    const filesDir = mkdtempSync(join(tmpdir(), 'settlement-metrics-'));
    after(() => rmSync(filesDir, { recursive: true, force: true }));
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });

    const counts = (connector: string) => ({
      matched: ['gateway_settlement_records_total', { connector, outcome: 'matched' }],
      unmatched: ['gateway_settlement_records_total', { connector, outcome: 'unmatched' }],
      duplicate: ['gateway_settlement_records_total', { connector, outcome: 'duplicate' }],
      jobDone: ['gateway_job_runs_total', { job_type: 'settle-day', outcome: 'done' }],
    } as const);

    it('the daily run counts the day\'s records matched and unmatched; settling the day again counts them as duplicates', async () => {
      const paid = await cardPayment(t, merchant, 'DB', '25.00');
      assert.equal(paid.statusCode, 200, paid.body);
      const { rows } = await t.storage.query<{ connector_id: string; reference: string }>(
        `SELECT connector_id, connector_references ->> 'ConnectorTxID1' AS reference FROM transactions WHERE id = $1`, [paid.json().id],
      );
      const { connector_id: connector, reference } = rows[0]!;
      const file = fixedSource(connector, [settled('R-1', reference), settled('R-2', 'NO-SUCH-REFERENCE'), settled('R-3', 'NOR-THIS-ONE', 990n)]);
      const deps = { operations: t.app.gateway.payments, sources: () => [file], filesDir, runAtMinuteUtc: 120, window: { catchUpDays: 1, settleAgainDays: 1 }, logger: silentLogger };
      const worker = new JobWorker({
        storage: t.storage, clock: t.clock, logger: silentLogger, observer: t.app.gateway.observer, handlers: [settleDayHandler(deps)],
        concurrency: 1, batchSize: 1, pollIntervalMs: 5, leaseMs: 60_000, sweepIntervalMs: 30_000,
      });

      const before = await valuesOf(t, counts(connector));
      // The clock says 2026-11-22 10:00: the daily job (due since migration 022) settles 2026-11-21.
      assert.equal(await worker.runOnce(), 1);
      assert.deepEqual(deltas(before, await valuesOf(t, counts(connector))), { matched: 1, unmatched: 2, duplicate: 0, jobDone: 1 });

      await runSettlementDay(t.app.gateway.payments, [file], filesDir, DAY);
      assert.deepEqual(deltas(before, await valuesOf(t, counts(connector))), { matched: 1, unmatched: 2, duplicate: 3, jobDone: 1 });
    });
  });
}
