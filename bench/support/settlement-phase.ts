/**
 * Settlement, as rows of `npm run bench`: ingest and matching of `records` settlement records
 * against as many stored transactions (records per second, peak memory of this process), then the
 * merchant's reconciliation file of that day, one line per record (seconds, peak memory), then the
 * acquirer host's settlement file of `fileRecords` lines read from disk through the ISO 8583
 * connector's feed (seconds, peak memory: it must not grow with the file). Runs in the
 * benchmark's own process: settlement is a job, not a request.
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import type { SettlementRecord } from '../../src/connectors/connector.js';
import { readSettlement } from '../../src/connectors/iso8583/settlement-source.js';
import { randomIds, systemClock } from '../../src/domain/ids.js';
import { ingestSettlement, type SettlementSource } from '../../src/operations/settlement/ingest-settlement.js';
import { writeReconciliationFile } from '../../src/operations/settlement/write-reconciliation-file.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';
import type { OperationDeps } from '../../src/operations/deps.js';
import type { PhaseResult } from '../load.js';

export interface SettlementPhaseSettings {
  readonly schemaUrl: string;
  readonly admin: pg.Client;
  readonly merchantId: string;
  readonly records: number;
  /** Lines of the acquirer host's settlement file (BENCH_SETTLEMENT_FILE_RECORDS). */
  readonly fileRecords: number;
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

/** The acquirer host's transactions of the file phase: their RRNs are the file's references. */
async function seedAcquirerTransactions(admin: pg.Client, merchantId: string, count: number): Promise<void> {
  await admin.query(
    `INSERT INTO transactions (id, entity_id, payment_type, status, result_code, amount_minor, currency, short_id, connector_id,
                               connector_references, merchant_transaction_id, payment_brand, response, created_at, updated_at)
     SELECT md5('bench-iso-' || i), $1, 'DB', 'success', '000.100.112', 1000 + i % 5000, 'EUR', 'I' || lpad(i::text, 13, '0'), 'acquirer-host',
            jsonb_build_object('ConnectorTxID1', (600000000000 + i)::text, 'ConnectorTxID2', lpad((i % 999999)::text, 6, '0')),
            NULL, 'VISA', json_build_object('descriptor', 'Bench shop'), $2::timestamptz + (i * interval '25 milliseconds'), $2::timestamptz
       FROM generate_series(1, $3::int) AS i`,
    [merchantId, new Date(TRANSACTION_DAY_MS), count],
  );
  await admin.query('ANALYZE transactions');
}

/** The host's file of `count` detail lines (emulators/acquirer-host/README.md), written as a stream. */
async function writeAcquirerFile(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`H|ACQHOST-SETTLEMENT|1|${DAY}|Acquirer Host Emulator\n`);
  for (let i = 1; i <= count; i += 1000) {
    const lines: string[] = [];
    for (let n = i; n < i + 1000 && n <= count; n++) {
      const amount = 1000 + (n % 5000);
      const at = new Date(TRANSACTION_DAY_MS + n * 25).toISOString();
      lines.push(`D|bench-iso-${n}-S|SETTLED|SUCCESS|${at}|bench-iso-${n}|${600000000000 + n}|${String(n % 999999).padStart(6, '0')}|A00001|DB|${amount}|EUR|${Math.floor(amount * 15 / 1000)}||\n`);
    }
    await write(lines.join(''));
  }
  await write(`T|${count}\n`);
  out.end();
  await once(out, 'finish');
}

/** The acquirer host's file through the connector's feed: one source, streamed, matched against the acquirer's transactions. */
async function acquirerFilePhase(settings: SettlementPhaseSettings, deps: OperationDeps, dir: string): Promise<PhaseResult> {
  await seedAcquirerTransactions(settings.admin, settings.merchantId, settings.fileRecords);
  const path = join(dir, `settlement-${DAY}.txt`);
  await writeAcquirerFile(path, settings.fileRecords);
  const megabytes = statSync(path).size / 1_048_576;
  const source = { connectorId: 'acquirer-host', matchesConnectorIds: ['acquirer-host', 'external-test-platform'], records: (day: string) => readSettlement(join(dir, 'settlement-{date}.txt'), { date: day }) };
  const ingest = await withPeakRss(() => ingestSettlement(deps, [source], DAY));
  if (ingest.value.matched !== settings.fileRecords) throw new Error(`acquirer file: matched ${ingest.value.matched} of ${settings.fileRecords}`);
  console.log(`acquirer settlement file: ${settings.fileRecords} records (${megabytes.toFixed(0)} MiB) in ${ingest.seconds.toFixed(1)} s, ${(settings.fileRecords / ingest.seconds).toFixed(0)} records/s, peak RSS ${ingest.peakRssMiB.toFixed(0)} MiB`);
  return row(`ISO 8583 settlement file ${settings.fileRecords} records (${megabytes.toFixed(0)} MiB)`, settings.fileRecords, ingest.seconds, ingest.peakRssMiB);
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
    const acquirerFile = settings.fileRecords > 0 ? [await acquirerFilePhase(settings, deps, dir)] : [];
    return [
      row(`settlement ingest+match ${settings.records} records`, settings.records, ingest.seconds, ingest.peakRssMiB),
      row(`reconciliation file ${file.value.lines} lines`, file.value.lines, file.seconds, file.peakRssMiB),
      ...acquirerFile,
    ];
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
