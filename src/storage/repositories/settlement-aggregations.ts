import type { Queryable } from '../port.js';

/**
 * The merchants an entity may see the settlement of: a merchant its own; a division the merchants
 * under it; a PSP those under it and under its divisions. A channel sees none: settlement is the
 * merchant's (docs/settlement.md). No entity (null): every merchant's, for the console's operators.
 */
const VISIBLE_MERCHANT = `($1::char(32) IS NULL OR a.merchant_id = $1
   OR a.merchant_id IN (SELECT id FROM entities WHERE parent_id = $1 AND kind = 'merchant')
   OR a.merchant_id IN (SELECT m.id FROM entities m JOIN entities d ON d.id = m.parent_id WHERE d.parent_id = $1 AND d.kind = 'division'))`;

export interface AggregationTotals {
  readonly id: string;
  readonly merchantId: string;
  readonly batchId: string;
  readonly settlementDate: string;
  readonly currency: string;
  readonly clearingInstituteName: string;
  readonly records: number;
  readonly settledMinor: bigint;
  readonly chargebacksMinor: bigint;
  readonly reversalsMinor: bigint;
  readonly feesMinor: bigint;
  readonly failed: number;
}

interface TotalsRow {
  id: string;
  merchant_id: string;
  batch_id: string;
  settlement_date: string;
  currency: string;
  clearing_institute: string;
  records: number;
  settled: bigint | null;
  chargebacks: bigint | null;
  reversals: bigint | null;
  fees: bigint | null;
  failed: number;
}

// Credits and refunds leave the merchant's balance; FAILED lines moved nothing.
const TOTALS = `count(r.id)::int AS records,
  sum(CASE WHEN r.status <> 'SUCCESS' OR r.record_type <> 'SETTLED' THEN 0
           WHEN r.payment_type IN ('CD', 'RF', 'CREDIT', 'REFUND') THEN -r.settlement_amount_minor ELSE r.settlement_amount_minor END) AS settled,
  sum(CASE WHEN r.status = 'SUCCESS' AND r.record_type = 'CHARGEBACK' THEN r.settlement_amount_minor ELSE 0 END) AS chargebacks,
  sum(CASE WHEN r.status = 'SUCCESS' AND r.record_type = 'CHARGEBACK_REVERSAL' THEN r.settlement_amount_minor ELSE 0 END) AS reversals,
  sum(CASE WHEN r.status = 'SUCCESS' THEN r.fee_minor ELSE 0 END) AS fees,
  count(r.id) FILTER (WHERE r.status = 'FAILED')::int AS failed`;

function toTotals(row: TotalsRow): AggregationTotals {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    batchId: row.batch_id,
    settlementDate: row.settlement_date,
    currency: row.currency,
    clearingInstituteName: row.clearing_institute,
    records: row.records,
    settledMinor: BigInt(row.settled ?? 0n),
    chargebacksMinor: BigInt(row.chargebacks ?? 0n),
    reversalsMinor: BigInt(row.reversals ?? 0n),
    feesMinor: BigInt(row.fees ?? 0n),
    failed: row.failed,
  };
}

const SELECT_TOTALS = `SELECT a.id, a.merchant_id, a.batch_id, to_char(a.settlement_date, 'YYYY-MM-DD') AS settlement_date,
       a.settlement_currency AS currency, a.clearing_institute, ${TOTALS}
  FROM settlement_aggregations a LEFT JOIN settlement_records r ON r.aggregation_id = a.id`;

export interface AggregationFilter {
  readonly from: string;
  readonly to: string;
  readonly currency?: string | undefined;
  /** At most this many (the console's page); absent: all of them (the report). */
  readonly limit?: number | undefined;
  /** Newest settlement day first (the console); else oldest first (the report). */
  readonly newestFirst?: boolean | undefined;
}

/** The entity's aggregations of settlement days from..to (inclusive), optionally of one settlement currency; null: every merchant's. */
export async function listAggregations(db: Queryable, entityId: string | null, filter: AggregationFilter): Promise<AggregationTotals[]> {
  const order = filter.newestFirst ? 'a.settlement_date DESC, a.settlement_currency, a.id' : 'a.settlement_date, a.id';
  const { rows } = await db.query<TotalsRow>(
    `${SELECT_TOTALS}
      WHERE ${VISIBLE_MERCHANT} AND a.settlement_date >= $2::date AND a.settlement_date <= $3::date AND ($4::text IS NULL OR a.settlement_currency = $4)
      GROUP BY a.id ORDER BY ${order} LIMIT $5`,
    [entityId, filter.from, filter.to, filter.currency ?? null, filter.limit ?? null],
  );
  return rows.map(toTotals);
}

/** One aggregation, if the entity may see it (null: any merchant's). */
export async function findAggregation(db: Queryable, entityId: string | null, id: string): Promise<AggregationTotals | undefined> {
  const { rows } = await db.query<TotalsRow>(`${SELECT_TOTALS} WHERE a.id = $2 AND ${VISIBLE_MERCHANT} GROUP BY a.id`, [entityId, id]);
  return rows[0] ? toTotals(rows[0]) : undefined;
}
