import type { SettlementRecord } from '../../connectors/connector.js';
import type { ChargebackShortfall } from '../../domain/settlement/chargeback.js';
import type { MatchCandidate, MatchingStatus } from '../../domain/settlement/matching.js';
import type { Queryable } from '../port.js';

/** A candidate with the merchant it belongs to (a channel's merchant, or the merchant itself). */
export interface CandidateRow extends MatchCandidate {
  readonly merchantId: string;
}

interface RawCandidate {
  id: string;
  entity_id: string;
  merchant_id: string;
  payment_type: string;
  status: string;
  amount_minor: bigint;
  currency: string;
  merchant_transaction_id: string | null;
  created_at: Date;
  reference: string | null;
}

const CANDIDATE_COLUMNS = `t.id, t.entity_id, COALESCE(e.merchant_id, e.id) AS merchant_id, t.payment_type, t.status, t.amount_minor, t.currency,
       t.merchant_transaction_id, t.created_at, t.connector_references ->> 'ConnectorTxID1' AS reference`;

function toCandidate(r: RawCandidate): CandidateRow {
  return {
    id: r.id,
    entityId: r.entity_id,
    merchantId: r.merchant_id,
    paymentType: r.payment_type,
    status: r.status,
    amountMinor: BigInt(r.amount_minor),
    currency: r.currency,
    merchantTransactionId: r.merchant_transaction_id,
    createdAt: r.created_at,
    reference: r.reference,
  };
}

/** The connectors' transactions whose first reference (ConnectorTxID1) is one of these. */
export async function candidatesByReference(db: Queryable, connectorIds: readonly string[], references: readonly string[]): Promise<CandidateRow[]> {
  if (references.length === 0) return [];
  const { rows } = await db.query<RawCandidate>(
    `SELECT ${CANDIDATE_COLUMNS} FROM transactions t JOIN entities e ON e.id = t.entity_id
      WHERE (t.connector_references ->> 'ConnectorTxID1') = ANY($2::text[]) AND t.connector_id = ANY($1::text[])`,
    [connectorIds, references],
  );
  return rows.map(toCandidate);
}

/** The fallback's candidates: the connectors' transactions with one of these merchantTransactionIds in the window. */
export async function candidatesByMerchantTransactionId(db: Queryable, connectorIds: readonly string[], ids: readonly string[], window: { readonly from: Date; readonly to: Date }): Promise<CandidateRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<RawCandidate>(
    `SELECT ${CANDIDATE_COLUMNS} FROM transactions t JOIN entities e ON e.id = t.entity_id
      WHERE t.connector_id = ANY($1::text[]) AND t.merchant_transaction_id = ANY($2::text[]) AND t.created_at >= $3 AND t.created_at < $4`,
    [connectorIds, ids, window.from, window.to],
  );
  return rows.map(toCandidate);
}

/** Which of these ids are merchant entities (a record's own merchant hint is checked, never trusted). */
export async function existingMerchants(db: Queryable, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM entities WHERE kind = 'merchant' AND id = ANY($1::char(32)[])`, [ids]);
  return new Set(rows.map((r) => r.id));
}

export interface AggregationKey {
  readonly id: string;
  readonly merchantId: string;
  readonly batchId: string;
  readonly settlementDate: string;
  readonly settlementCurrency: string;
  readonly clearingInstitute: string;
}

export const aggregationKey = (batchId: string, merchantId: string): string => `${batchId}/${merchantId}`;

/** The aggregations of a batch's merchants, created when new; answers their ids by aggregationKey. */
export async function ensureAggregations(db: Queryable, connectorId: string, wanted: readonly AggregationKey[], at: Date): Promise<Map<string, string>> {
  if (wanted.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; batch_id: string; merchant_id: string }>(
    `WITH wanted AS (SELECT * FROM json_to_recordset($2::json) AS w(id text, "merchantId" text, "batchId" text, "settlementDate" date, "settlementCurrency" text, "clearingInstitute" text)),
          inserted AS (
            INSERT INTO settlement_aggregations (id, merchant_id, connector_id, batch_id, settlement_date, settlement_currency, clearing_institute, created_at)
            SELECT id, "merchantId", $1, "batchId", "settlementDate", "settlementCurrency", "clearingInstitute", $3 FROM wanted
            ON CONFLICT (connector_id, batch_id, merchant_id) DO NOTHING RETURNING id, batch_id, merchant_id)
     SELECT id, batch_id, merchant_id FROM inserted
     UNION ALL
     SELECT a.id, a.batch_id, a.merchant_id FROM settlement_aggregations a JOIN wanted w ON a.connector_id = $1 AND a.batch_id = w."batchId" AND a.merchant_id = w."merchantId"`,
    [connectorId, JSON.stringify(wanted), at],
  );
  return new Map(rows.map((r) => [aggregationKey(r.batch_id, r.merchant_id), r.id]));
}

/** A record with what ingest decided about it. */
export interface NewSettlementRecord {
  readonly id: string;
  readonly record: SettlementRecord;
  readonly aggregationId: string | null;
  readonly merchantId: string | null;
  readonly matchingStatus: MatchingStatus;
  readonly matchedIds: readonly string[];
}

function recordRow(connectorId: string, r: NewSettlementRecord, at: Date): Record<string, unknown> {
  const { record } = r;
  return {
    id: r.id, connector_id: connectorId, record_id: record.recordId, aggregation_id: r.aggregationId, merchant_id: r.merchantId,
    record_type: record.type, status: record.status, settlement_date: record.settlementDate, transaction_date: record.transactionDate,
    clearing_institute: record.clearingInstitute, clearing_institute_merchant_id: record.clearingInstituteMerchantId ?? null, batch_id: record.batchId, payment_type: record.transactionType ?? record.paymentType,
    amount_minor: record.amountMinor.toString(), currency: record.currency, settlement_amount_minor: record.settlementAmountMinor.toString(),
    settlement_currency: record.settlementCurrency, fx_rate: record.fxRate, fee_minor: record.feeMinor.toString(), fee_currency: record.feeCurrency,
    connector_references: record.connectorReferences, merchant_transaction_id: record.merchantTransactionId ?? null,
    result_code: record.resultCode ?? null, reason_code: record.reasonCode ?? null, matching_status: r.matchingStatus,
    matched_ids: r.matchedIds, chargeback_id: null, refundable_taken_minor: null, ingested_at: at, reversed_chargeback_id: null,
  };
}

/**
 * Writes the records the table does not hold yet and answers the ids of those it wrote: a file
 * delivered again writes nothing, so nothing downstream (chargebacks, notifications) repeats.
 */
export async function insertNewRecords(db: Queryable, connectorId: string, records: readonly NewSettlementRecord[], at: Date): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO settlement_records SELECT * FROM json_populate_recordset(NULL::settlement_records, $1::json)
     ON CONFLICT (connector_id, record_id) DO NOTHING RETURNING id`,
    [JSON.stringify(records.map((r) => recordRow(connectorId, r, at)))],
  );
  return new Set(rows.map((r) => r.id));
}

/** Notes on the record the CB or CR it created, what a CB took, and which CB a CR reversed. */
export async function setChargebackId(db: Queryable, recordId: string, applied: { readonly chargebackId: string; readonly takenMinor: bigint | null; readonly reversedChargebackId: string | null }): Promise<void> {
  await db.query('UPDATE settlement_records SET chargeback_id = $2, refundable_taken_minor = $3, reversed_chargeback_id = $4 WHERE id = $1', [
    recordId, applied.chargebackId, applied.takenMinor, applied.reversedChargebackId,
  ]);
}

/**
 * The payment's CB that no reversal has reversed yet, with what it took from the refundable amount:
 * one of the reversal's amount first, else the oldest. Read under the payment's row lock.
 */
export async function unreversedChargebackOf(db: Queryable, parentId: string, amountMinor: bigint): Promise<{ id: string; takenMinor: bigint } | undefined> {
  const { rows } = await db.query<{ id: string; taken: bigint | null }>(
    `SELECT t.id, r.refundable_taken_minor AS taken FROM transactions t JOIN settlement_records r ON r.chargeback_id = t.id
      WHERE t.parent_id = $1 AND t.payment_type = 'CB'
        AND NOT EXISTS (SELECT 1 FROM settlement_records x WHERE x.reversed_chargeback_id = t.id)
      ORDER BY t.amount_minor = $2 DESC, t.created_at, t.id LIMIT 1`,
    [parentId, amountMinor.toString()],
  );
  return rows[0] ? { id: rows[0].id, takenMinor: BigInt(rows[0].taken ?? 0n) } : undefined;
}

/** Which of these record ids of the connector are stored already (a day settled again skips them). */
export async function storedRecordIds(db: Queryable, connectorId: string, recordIds: readonly string[]): Promise<Set<string>> {
  if (recordIds.length === 0) return new Set();
  // One index probe per id, whatever the planner believes: a LATERAL subquery with LIMIT cannot
  // become a hash or merge join. `record_id = ANY($2)`, and a plain join over unnest($2), let a
  // planner without statistics (a table this very run fills) scan every record of the connector
  // per batch, which made a day's ingest quadratic (0.6 s a batch at 1.5 million records).
  const { rows } = await db.query<{ record_id: string }>(
    `SELECT wanted.record_id FROM unnest($2::text[]) AS wanted(record_id),
       LATERAL (SELECT 1 FROM settlement_records r WHERE r.connector_id = $1 AND r.record_id = wanted.record_id LIMIT 1) AS stored`,
    [connectorId, recordIds],
  );
  return new Set(rows.map((r) => r.record_id));
}

/** The payment's chargebacks not reversed (but `exceptId`) that took less than their amount (at most the payment's), oldest first. */
export async function chargebackShortfalls(db: Queryable, parentId: string, exceptId = ''): Promise<ChargebackShortfall[]> {
  const { rows } = await db.query<{ id: string; short: bigint }>(
    `SELECT r.id, LEAST(r.amount_minor, p.amount_minor) - r.refundable_taken_minor AS short
       FROM settlement_records r JOIN transactions t ON t.id = r.chargeback_id JOIN transactions p ON p.id = t.parent_id
      WHERE t.parent_id = $1 AND t.payment_type = 'CB' AND r.refundable_taken_minor < LEAST(r.amount_minor, p.amount_minor) AND t.id <> $2
        AND NOT EXISTS (SELECT 1 FROM settlement_records x WHERE x.reversed_chargeback_id = t.id)
      ORDER BY t.created_at, t.id`,
    [parentId, exceptId],
  );
  return rows.map((r) => ({ recordId: r.id, shortMinor: BigInt(r.short) }));
}

export async function addToChargebackTaken(db: Queryable, recordId: string, addMinor: bigint): Promise<void> {
  await db.query('UPDATE settlement_records SET refundable_taken_minor = refundable_taken_minor + $2 WHERE id = $1', [recordId, addMinor.toString()]);
}
