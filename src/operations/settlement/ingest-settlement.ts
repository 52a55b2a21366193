import type { SettlementRecord } from '../../connectors/connector.js';
import type { Queryable } from '../../storage/port.js';
import { reopenDays } from '../../storage/repositories/settlement-days.js';
import { ensureAggregations, insertNewRecords, aggregationKey, storedRecordIds } from '../../storage/repositories/settlement-records.js';
import type { OperationDeps } from '../deps.js';
import { applyChargeback } from './apply-chargeback.js';
import { aggregationsOf, matchRecords, type MatchedRecord } from './match-records.js';

/** Where settlement records come from: a connector's settlement capability (with its route's credentials). */
export interface SettlementSource {
  /** The connector the records are stored under (one feed, one source). */
  readonly connectorId: string;
  /** Whose stored transactions the records may settle; the source's own connector when absent. */
  readonly matchesConnectorIds?: readonly string[];
  records(day: string): AsyncIterable<SettlementRecord>;
}

export interface IngestSummary {
  readonly records: number;
  /** Records written now (a file delivered again writes none). */
  readonly inserted: number;
  readonly matched: number;
  readonly multipleMatches: number;
  readonly notMatched: number;
  /** CB and CR transactions created. */
  readonly chargebacks: number;
  /** The merchants under which records were written now (their files of the day changed). */
  readonly merchantsWithNewRecords: readonly string[];
  /** The same counts for each source (connector), in the order of the sources. */
  readonly bySource: readonly SourceSummary[];
}

export interface SourceSummary {
  readonly connectorId: string;
  readonly records: number;
  readonly inserted: number;
  readonly matched: number;
  readonly multipleMatches: number;
  readonly notMatched: number;
}

/** Records a database transaction: large enough to amortise the round trips, small enough to hold few locks. */
export const INGEST_BATCH_RECORDS = 1000;

interface SourceCounts { records: number; inserted: number; matched: number; multipleMatches: number; notMatched: number }
interface Counts extends SourceCounts { chargebacks: number; merchants: Set<string> }

const noCounts = (): SourceCounts => ({ records: 0, inserted: 0, matched: 0, multipleMatches: 0, notMatched: 0 });

function isChargeback(m: MatchedRecord): boolean {
  return (m.record.type === 'CHARGEBACK' || m.record.type === 'CHARGEBACK_REVERSAL') && m.record.status === 'SUCCESS' && m.transaction !== undefined;
}

/**
 * One batch, one database transaction: the records matched, filed under their merchants'
 * aggregations, written unless already there, and for each new matched chargeback or reversal its
 * CB or CR with the notification. All of it commits together or not at all, so a run that dies
 * half-way is simply run again.
 */
async function ingestBatch(deps: OperationDeps, source: SettlementSource, batch: readonly SettlementRecord[], counts: Counts, ofSource: SourceCounts): Promise<void> {
  const { connectorId } = source;
  const written = await deps.storage.transaction(async (tx: Queryable): Promise<SourceCounts> => {
    const now = deps.clock.now();
    // A day settled again: the records stored before are neither matched nor applied again.
    const stored = await storedRecordIds(tx, connectorId, batch.map((r) => r.recordId));
    const records = batch.filter((r) => !stored.has(r.recordId));
    if (records.length === 0) return noCounts();
    const matched = await matchRecords(tx, deps.ids, source.matchesConnectorIds ?? [connectorId], records);
    const aggregations = await ensureAggregations(tx, connectorId, aggregationsOf(deps.ids, matched), now);
    const rows = matched.map((m) => ({ ...m, aggregationId: m.merchantId === null ? null : aggregations.get(aggregationKey(m.record.batchId, m.merchantId)) ?? null }));
    const inserted = await insertNewRecords(tx, connectorId, rows, now);
    const batchCounts = noCounts();
    for (const m of matched) {
      if (!inserted.has(m.id)) continue;
      batchCounts.inserted += 1;
      if (m.merchantId !== null) counts.merchants.add(m.merchantId);
      if (m.matchingStatus === 'MATCHED') batchCounts.matched += 1;
      else if (m.matchingStatus === 'MULTIPLE_MATCHES') batchCounts.multipleMatches += 1;
      else batchCounts.notMatched += 1;
      if (!isChargeback(m)) continue;
      const created = await applyChargeback(tx, deps, { rowId: m.id, record: m.record, parentId: m.transaction!.id, parentEntityId: m.transaction!.entityId });
      if (created) counts.chargebacks += 1;
    }
    // A finished day that gains records is not finished until its files hold them: should this run
    // die before it writes them, the next one rewrites every file of the day (not only the changed).
    await reopenDays(tx, [...new Set(matched.filter((m) => inserted.has(m.id)).map((m) => m.record.settlementDate))]);
    return batchCounts;
  });
  // Counted once the batch is committed: a batch that rolls back counts nothing.
  addCounts(counts, written);
  addCounts(ofSource, written);
}

function addCounts(total: SourceCounts, batch: SourceCounts): void {
  total.inserted += batch.inserted;
  total.matched += batch.matched;
  total.multipleMatches += batch.multipleMatches;
  total.notMatched += batch.notMatched;
}

/**
 * Ingests what every source settled on `day` (YYYY-MM-DD), streamed in batches: memory stays
 * constant whatever the size of the day. Running it again for the same day changes nothing.
 */
export async function ingestSettlement(deps: OperationDeps, sources: readonly SettlementSource[], day: string): Promise<IngestSummary> {
  const counts: Counts = { ...noCounts(), chargebacks: 0, merchants: new Set() };
  const bySource: SourceSummary[] = [];
  for (const source of sources) {
    const ofSource = noCounts();
    let batch: SettlementRecord[] = [];
    for await (const record of source.records(day)) {
      batch.push(record);
      counts.records += 1;
      ofSource.records += 1;
      if (batch.length === INGEST_BATCH_RECORDS) {
        await ingestBatch(deps, source, batch, counts, ofSource);
        batch = [];
      }
    }
    if (batch.length > 0) await ingestBatch(deps, source, batch, counts, ofSource);
    bySource.push({ connectorId: source.connectorId, ...ofSource });
  }
  const { merchants, ...summary } = counts;
  return { ...summary, merchantsWithNewRecords: [...merchants].sort(), bySource };
}
