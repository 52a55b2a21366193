import type { SettlementRecord } from '../../connectors/connector.js';
import { decideMatch } from '../../domain/settlement/matching.js';
import type { IdGenerator } from '../../domain/ids.js';
import type { Queryable } from '../../storage/port.js';
import { aggregationKey, candidatesByMerchantTransactionId, candidatesByReference, existingMerchants, type AggregationKey, type CandidateRow, type NewSettlementRecord } from '../../storage/repositories/settlement-records.js';

/** A record with its match and the merchant it is filed under. */
export interface MatchedRecord extends Omit<NewSettlementRecord, 'aggregationId'> {
  /** The single matched transaction (MATCHED only). */
  readonly transaction: CandidateRow | undefined;
}

const DAY_MS = 86_400_000;

function referenceOf(record: SettlementRecord): string | null {
  return record.connectorReferences['ConnectorTxID1'] ?? null;
}

/** The window of transaction days the batch names, widened a day each side for the fallback. */
function window(records: readonly SettlementRecord[]): { from: Date; to: Date } {
  let min = Infinity;
  let max = -Infinity;
  for (const r of records) {
    const time = r.transactionDate.getTime();
    if (time < min) min = time;
    if (time > max) max = time;
  }
  return { from: new Date(min - DAY_MS), to: new Date(max + DAY_MS) };
}

/**
 * The candidates of a batch in at most two queries, indexed so that each record finds its own:
 * by reference first; the fallback is looked up only for records no reference named.
 */
async function candidatesOf(db: Queryable, connectorIds: readonly string[], records: readonly SettlementRecord[]): Promise<Map<string, CandidateRow[]>> {
  const index = new Map<string, CandidateRow[]>();
  const add = (key: string, candidate: CandidateRow) => {
    const list = index.get(key);
    if (list) list.push(candidate);
    else index.set(key, [candidate]);
  };
  const references = [...new Set(records.map(referenceOf).filter((r): r is string => r !== null))];
  for (const candidate of await candidatesByReference(db, connectorIds, references)) add(`r:${candidate.reference}`, candidate);
  const unnamed = records.filter((r) => r.merchantTransactionId !== undefined && !index.has(`r:${referenceOf(r)}`));
  const merchantTransactionIds = [...new Set(unnamed.map((r) => r.merchantTransactionId!))];
  if (merchantTransactionIds.length > 0) {
    for (const candidate of await candidatesByMerchantTransactionId(db, connectorIds, merchantTransactionIds, window(unnamed))) add(`m:${candidate.merchantTransactionId}`, candidate);
  }
  return index;
}

function candidatesFor(index: Map<string, CandidateRow[]>, record: SettlementRecord): CandidateRow[] {
  const reference = referenceOf(record);
  const byReference = reference === null ? [] : index.get(`r:${reference}`) ?? [];
  const byMerchantId = record.merchantTransactionId === undefined ? [] : index.get(`m:${record.merchantTransactionId}`) ?? [];
  return byMerchantId.length === 0 ? byReference : [...new Set([...byReference, ...byMerchantId])];
}

/**
 * Matches a batch (domain/settlement/matching.ts) against the transactions of the connectors the
 * feed settles, and files each record under a merchant: the
 * matched transaction's, else the merchant the connector names if it exists, else none (then only
 * an operator sees it).
 */
export async function matchRecords(db: Queryable, ids: IdGenerator, connectorIds: readonly string[], records: readonly SettlementRecord[]): Promise<MatchedRecord[]> {
  const index = await candidatesOf(db, connectorIds, records);
  const named = [...new Set(records.map((r) => r.merchantEntityId).filter((m): m is string => m !== undefined && /^[0-9a-f]{32}$/.test(m)))];
  const merchants = await existingMerchants(db, named);
  return records.map((record) => {
    const candidates = candidatesFor(index, record);
    const decision = decideMatch({
      reference: referenceOf(record),
      merchantTransactionId: record.merchantTransactionId ?? null,
      amountMinor: record.amountMinor,
      currency: record.currency,
      transactionDate: record.transactionDate,
    }, candidates);
    const transaction = decision.status === 'MATCHED' ? candidates.find((c) => c.id === decision.matchedIds[0]) : undefined;
    const hinted = record.merchantEntityId !== undefined && merchants.has(record.merchantEntityId) ? record.merchantEntityId : null;
    return { id: ids.id(), record, merchantId: transaction?.merchantId ?? hinted, matchingStatus: decision.status, matchedIds: decision.matchedIds, transaction };
  });
}

/** The aggregations (merchant's share of a batch) the matched records need. */
export function aggregationsOf(ids: IdGenerator, matched: readonly MatchedRecord[]): AggregationKey[] {
  const wanted = new Map<string, AggregationKey>();
  for (const m of matched) {
    if (m.merchantId === null) continue;
    const key = aggregationKey(m.record.batchId, m.merchantId);
    if (!wanted.has(key)) {
      wanted.set(key, {
        id: ids.id(),
        merchantId: m.merchantId,
        batchId: m.record.batchId,
        settlementDate: m.record.settlementDate,
        settlementCurrency: m.record.settlementCurrency,
        clearingInstitute: m.record.clearingInstitute,
      });
    }
  }
  return [...wanted.values()];
}
