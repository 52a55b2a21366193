import type { SettleableTransaction, SettlementTransactionSource } from '../../connectors/simulator/index.js';
import { dayBounds } from '../../domain/settlement/days.js';
import type { PaymentType } from '../../domain/transaction.js';
import type { Queryable } from '../port.js';

interface SourceRow {
  id: string;
  created_at: Date;
  merchant_id: string;
  payment_type: PaymentType;
  amount_minor: bigint;
  currency: string;
  merchant_transaction_id: string | null;
  connector_references: Record<string, string>;
  fixed_minor: bigint | null;
  rate_basis_points: number | null;
  settlement_currency: string | null;
}

/** Rows a page; a day of a million transactions is read in a thousand steps of constant memory. */
const PAGE_ROWS = 1000;

const PAGE_SQL = `SELECT t.id, t.created_at, COALESCE(e.merchant_id, e.id) AS merchant_id, t.payment_type, t.amount_minor, t.currency,
       t.merchant_transaction_id, t.connector_references, f.fixed_minor, f.rate_basis_points, f.settlement_currency
  FROM transactions t
  JOIN entities e ON e.id = t.entity_id
  LEFT JOIN settlement_fees f ON f.entity_id = COALESCE(e.merchant_id, e.id)
 WHERE t.connector_id = $1 AND t.status = 'success' AND t.created_at >= $2 AND t.created_at < $3
   AND (t.created_at, t.id) > ($4::timestamptz, $5::char(32))
 ORDER BY t.created_at, t.id
 LIMIT ${PAGE_ROWS}`;

function toSettleable(row: SourceRow): SettleableTransaction {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    paymentType: row.payment_type,
    amountMinor: BigInt(row.amount_minor),
    currency: row.currency,
    createdAt: row.created_at,
    merchantTransactionId: row.merchant_transaction_id,
    connectorReferences: row.connector_references,
    feeRate: row.fixed_minor === null ? null : { fixedMinor: BigInt(row.fixed_minor), rateBasisPoints: Number(row.rate_basis_points) },
    settlementCurrency: row.settlement_currency,
  };
}

/** The simulator's read port over the stored transactions (connectors hold no SQL). */
export function storedSettlementSource(db: Queryable): SettlementTransactionSource {
  return {
    async *transactionsOf(connectorId, day) {
      const { from, to } = dayBounds(day);
      let after: { at: Date; id: string } = { at: new Date(from.getTime() - 1), id: '' };
      for (;;) {
        const { rows } = await db.query<SourceRow>(PAGE_SQL, [connectorId, from, to, after.at, after.id]);
        for (const row of rows) yield toSettleable(row);
        if (rows.length < PAGE_ROWS) return;
        const last = rows[rows.length - 1]!;
        after = { at: last.created_at, id: last.id };
      }
    },
  };
}
