import type { PaymentType, TransactionState, TransactionStatus } from '../../domain/transaction.js';
import type { Queryable } from '../port.js';

/** A stored transaction: the life-cycle facts plus what the API shows of it. */
export interface StoredTransaction extends TransactionState {
  readonly parentId: string | null;
  readonly paymentBrand: string | null;
  readonly paymentMethod: string | null;
  readonly merchantTransactionId: string | null;
  readonly shortId: string;
  readonly connectorReferences: Readonly<Record<string, string>>;
  readonly schemeTransactionId: string | null;
  /** sequence=FINAL on a capture or refund. */
  readonly isFinal: boolean;
  /** The response body as the API shows it, without the envelope fields. */
  readonly response: Record<string, unknown>;
  readonly updatedAt: Date;
}

interface TransactionRow {
  id: string;
  entity_id: string;
  parent_id: string | null;
  payment_type: PaymentType;
  status: TransactionStatus;
  result_code: string;
  amount_minor: bigint;
  currency: string;
  captured_minor: bigint;
  refunded_minor: bigint;
  capture_count: number;
  max_captures: number | null;
  capture_closed: boolean;
  refund_closed: boolean;
  reversed_at: Date | null;
  is_final: boolean;
  payment_brand: string | null;
  payment_method: string | null;
  merchant_transaction_id: string | null;
  short_id: string;
  connector_id: string;
  connector_references: Record<string, string>;
  scheme_transaction_id: string | null;
  response: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

function toStored(row: TransactionRow): StoredTransaction {
  return {
    id: row.id,
    entityId: row.entity_id,
    parentId: row.parent_id,
    paymentType: row.payment_type,
    status: row.status,
    resultCode: row.result_code,
    amountMinor: BigInt(row.amount_minor),
    currency: row.currency,
    capturedMinor: BigInt(row.captured_minor),
    refundedMinor: BigInt(row.refunded_minor),
    captureCount: row.capture_count,
    maxCaptures: row.max_captures,
    captureClosed: row.capture_closed,
    refundClosed: row.refund_closed,
    reversedAt: row.reversed_at,
    isFinal: row.is_final,
    paymentBrand: row.payment_brand,
    paymentMethod: row.payment_method,
    merchantTransactionId: row.merchant_transaction_id,
    shortId: row.short_id,
    connectorId: row.connector_id,
    connectorReferences: row.connector_references,
    schemeTransactionId: row.scheme_transaction_id,
    response: row.response,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function insertTransaction(db: Queryable, t: StoredTransaction): Promise<void> {
  await db.query(
    `INSERT INTO transactions (id, entity_id, parent_id, payment_type, status, result_code, amount_minor, currency,
       captured_minor, refunded_minor, capture_count, max_captures, capture_closed, refund_closed, reversed_at, is_final,
       payment_brand, payment_method, merchant_transaction_id, short_id, connector_id, connector_references,
       scheme_transaction_id, response, created_at, updated_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26)`,
    [
      t.id, t.entityId, t.parentId, t.paymentType, t.status, t.resultCode, t.amountMinor, t.currency,
      t.capturedMinor, t.refundedMinor, t.captureCount, t.maxCaptures, t.captureClosed, t.refundClosed, t.reversedAt, t.isFinal,
      t.paymentBrand, t.paymentMethod, t.merchantTransactionId, t.shortId, t.connectorId, JSON.stringify(t.connectorReferences),
      t.schemeTransactionId, JSON.stringify(t.response), t.createdAt, t.updatedAt,
    ],
  );
}

// A merchant's entityId also reaches the transactions of its channels; a channel's only its own.
const ENTITY_SCOPE = `(entity_id = $2 OR entity_id IN (SELECT id FROM entities WHERE merchant_id = $2))`;

/** The transaction with that id, if the entity may see it. */
export async function findTransaction(db: Queryable, entityId: string, id: string): Promise<StoredTransaction | undefined> {
  const { rows } = await db.query<TransactionRow>(`SELECT * FROM transactions WHERE id = $1 AND ${ENTITY_SCOPE}`, [id, entityId]);
  return rows[0] ? toStored(rows[0]) : undefined;
}

/** Same, holding the row lock until the transaction ends: the rule for every change of totals. */
export async function lockTransaction(db: Queryable, entityId: string, id: string): Promise<StoredTransaction | undefined> {
  const { rows } = await db.query<TransactionRow>(`SELECT * FROM transactions WHERE id = $1 AND ${ENTITY_SCOPE} FOR UPDATE`, [id, entityId]);
  return rows[0] ? toStored(rows[0]) : undefined;
}

export interface TotalsUpdate {
  readonly capturedMinor: bigint;
  readonly refundedMinor: bigint;
  readonly captureCount: number;
  readonly captureClosed: boolean;
  readonly refundClosed: boolean;
  readonly reversedAt: Date | null;
}

export async function updateTotals(db: Queryable, id: string, totals: TotalsUpdate, at: Date): Promise<void> {
  await db.query(
    `UPDATE transactions SET captured_minor = $2, refunded_minor = $3, capture_count = $4, capture_closed = $5,
       refund_closed = $6, reversed_at = $7, updated_at = $8 WHERE id = $1`,
    [id, totals.capturedMinor, totals.refundedMinor, totals.captureCount, totals.captureClosed, totals.refundClosed, totals.reversedAt, at],
  );
}

export interface OutcomeUpdate {
  readonly status: TransactionStatus;
  readonly resultCode: string;
  readonly connectorReferences: Readonly<Record<string, string>>;
  readonly schemeTransactionId: string | null;
  readonly response: Record<string, unknown>;
}

export async function recordOutcome(db: Queryable, id: string, outcome: OutcomeUpdate, at: Date): Promise<void> {
  await db.query(
    `UPDATE transactions SET status = $2, result_code = $3, connector_references = $4, scheme_transaction_id = $5,
       response = $6, updated_at = $7 WHERE id = $1`,
    [id, outcome.status, outcome.resultCode, JSON.stringify(outcome.connectorReferences), outcome.schemeTransactionId, JSON.stringify(outcome.response), at],
  );
}

/** Does another capture or refund with sequence=FINAL still stand on this parent? */
export async function hasStandingFinalChild(db: Queryable, parentId: string, paymentType: PaymentType, exceptId: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM transactions WHERE parent_id = $1 AND payment_type = $2 AND is_final AND status <> 'rejected' AND id <> $3 LIMIT 1`,
    [parentId, paymentType, exceptId],
  );
  return rows.length > 0;
}
