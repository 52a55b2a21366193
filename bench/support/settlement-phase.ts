/**
 * Settlement, as rows of `npm run bench`: ingest and matching of `records` settlement records
 * against as many stored transactions (records per second, peak memory of this process), then the
 * merchant's reconciliation file of that day, one line per record (seconds, peak memory). Runs in
 * the benchmark's own process: settlement is a job, not a request.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import type { SettlementRecord } from '../../src/connectors/connector.js';
import { randomIds, systemClock } from '../../src/domain/ids.js';
import { ingestSettlement, type SettlementSource } from '../../src/operations/settlement/ingest-settlement.js';
import { writeReconciliationFile } from '../../src/operations/settlement/write-reconciliation-file.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';
import type { PhaseResult } from '../load.js';

export interface SettlementPhaseSettings {
  readonly schemaUrl: string;
  readonly admin: pg.Client;
  readonly merchantId: string;
  readonly records: number;
}

const DAY = '2026-11-23';
const TRANSACTION_DAY_MS = Date.parse('2026-11-22T00:00:00Z');

/** The transactions the records settle, written by PostgreSQL itself (the gateway would take hours). */
export async function seedTransactions(admin: pg.Client, merchantId: string, count: number): Promise<void> {
  await admin.query(
    `INSERT INTO transactions (id, entity_id, payment_type, status, result_code, amount_minor, currency, short_id, connector_id,
                               connector_references, merchant_transaction_id, payment_brand, response, created_at, updated_at)
     SELECT md5('bench-tx-' || i), $1, 'DB', 'success', '000.100.110', 1000 + i % 5000, 'EUR', lpad(i::text, 14, '0'), 'simulator',
            jsonb_build_object('ConnectorTxID1', 'SIM-bench-' || i, 'ConnectorTxID2', lpad((i % 999999)::text, 6, '0')),
            'order-' || lpad(i::text, 10, '0'), 'VISA',
            json_build_object('descriptor', 'Bench shop', 'card', json_build_object('last4Digits', '0000', 'holder', 'Jane Jones')),
            $2::timestamptz + (i * interval '50 milliseconds'), $2::timestamptz
       FROM generate_series(1, $3::int) AS i`,
    [merchantId, new Date(TRANSACTION_DAY_MS), count],
  );
  await admin.query('ANALYZE transactions');
}

/** An acquirer's file of `count` lines, made as it is read (the source streams, like a real one). */
function benchSource(merchantId: string, count: number): SettlementSource {
  return {
    connectorId: 'simulator',
    async *records(): AsyncGenerator<SettlementRecord> {
      for (let i = 1; i <= count; i++) {
        const amountMinor = BigInt(1000 + (i % 5000));
        yield {
          recordId: `SIM-S-bench-${i}`, type: 'SETTLED', status: 'SUCCESS', settlementDate: DAY, transactionDate: new Date(TRANSACTION_DAY_MS + i * 50),
          clearingInstitute: 'Simulator Acquiring Bank', batchId: `SIM-${DAY}-EUR`, paymentType: 'DB', amountMinor, currency: 'EUR',
          settlementAmountMinor: amountMinor, settlementCurrency: 'EUR', fxRate: '1', feeMinor: 25n, feeCurrency: 'EUR',
          connectorReferences: { ConnectorTxID1: `SIM-bench-${i}` }, merchantTransactionId: `order-${String(i).padStart(10, '0')}`, merchantEntityId: merchantId,
        };
      }
    },
  };
}

/** Samples this process's resident memory while `work` runs; answers the highest. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number; peakRssMiB: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = process.hrtime.bigint();
  try {
    const value = await work();
    return { value, seconds: Number(process.hrtime.bigint() - started) / 1e9, peakRssMiB: Math.max(peak, process.memoryUsage().rss) / 1_048_576 };
  } finally {
    clearInterval(timer);
  }
}

function row(name: string, count: number, seconds: number, peakRssMiB: number): PhaseResult {
  return {
    name, connections: 1, durationSeconds: seconds, requests: count, requestsPerSecond: count / seconds,
    latencyMs: { p50: 0, p99: 0, p99_9: 0, max: 0 }, errors: 0, timeouts: 0, non2xx: 0, statusCodes: {}, rssMiB: peakRssMiB,
  };
}

export async function settlementPhases(settings: SettlementPhaseSettings): Promise<PhaseResult[]> {
  await seedTransactions(settings.admin, settings.merchantId, settings.records);
  const storage = createPgStorage({ connectionString: settings.schemaUrl, poolSize: 2 });
  const dir = mkdtempSync(join(tmpdir(), 'bench-settlement-'));
  try {
    const deps = { storage, clock: systemClock, ids: randomIds };
    const ingest = await withPeakRss(() => ingestSettlement(deps, [benchSource(settings.merchantId, settings.records)], DAY));
    if (ingest.value.matched !== settings.records) throw new Error(`matched ${ingest.value.matched} of ${settings.records}`);
    console.log(`settlement ingest: ${settings.records} records in ${ingest.seconds.toFixed(1)} s, ${(settings.records / ingest.seconds).toFixed(0)} records/s, peak RSS ${ingest.peakRssMiB.toFixed(0)} MiB`);
    const file = await withPeakRss(() => writeReconciliationFile(storage, dir, settings.merchantId, DAY));
    const megabytes = statSync(file.value.path).size / 1_048_576;
    console.log(`reconciliation file: ${file.value.lines} lines (${megabytes.toFixed(0)} MiB) in ${file.seconds.toFixed(1)} s, peak RSS ${file.peakRssMiB.toFixed(0)} MiB`);
    return [
      row(`settlement ingest+match ${settings.records} records`, settings.records, ingest.seconds, ingest.peakRssMiB),
      row(`reconciliation file ${file.value.lines} lines`, file.value.lines, file.seconds, file.peakRssMiB),
    ];
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
