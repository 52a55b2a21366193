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

const COLUMNS = `id, entity_id, parent_id, payment_type, status, result_code, amount_minor, currency,
  captured_minor, refunded_minor, capture_count, max_captures, capture_closed, refund_closed, reversed_at, is_final,
  payment_brand, payment_method, merchant_transaction_id, short_id, connector_id, connector_references,
  scheme_transaction_id, response, created_at, updated_at`;

/** The row as JSON for json_populate_recordset: bigint as text, dates as ISO strings, json nested. */
function toRow(t: StoredTransaction): Record<keyof TransactionRow, unknown> {
  return {
    id: t.id,
    entity_id: t.entityId,
    parent_id: t.parentId,
    payment_type: t.paymentType,
    status: t.status,
    result_code: t.resultCode,
    amount_minor: t.amountMinor.toString(),
    currency: t.currency,
    captured_minor: t.capturedMinor.toString(),
    refunded_minor: t.refundedMinor.toString(),
    capture_count: t.captureCount,
    max_captures: t.maxCaptures,
    capture_closed: t.captureClosed,
    refund_closed: t.refundClosed,
    reversed_at: t.reversedAt,
    is_final: t.isFinal,
    payment_brand: t.paymentBrand,
    payment_method: t.paymentMethod,
    merchant_transaction_id: t.merchantTransactionId,
    short_id: t.shortId,
    connector_id: t.connectorId,
    connector_references: t.connectorReferences,
    scheme_transaction_id: t.schemeTransactionId,
    response: t.response,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
  };
}

/**
 * Any number of rows in one statement (group commit writes the pending rows of concurrent
 * requests together). The rows travel as one JSON parameter; `json`, not `jsonb`, so that the
 * stored response keeps its key order.
 */
export async function insertTransactions(db: Queryable, rows: readonly StoredTransaction[]): Promise<void> {
  await db.query(
    `INSERT INTO transactions (${COLUMNS}) SELECT ${COLUMNS} FROM json_populate_recordset(NULL::transactions, $1::json)`,
    [JSON.stringify(rows.map(toRow))],
    { prepareAs: 'insert_transactions' },
  );
}

export async function insertTransaction(db: Queryable, t: StoredTransaction): Promise<void> {
  await insertTransactions(db, [t]);
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
  /** The stored response, already JSON text: written into the row as it is. */
  readonly responseJson: string;
}

export interface RecordedOutcome {
  readonly id: string;
  readonly outcome: OutcomeUpdate;
  readonly at: Date;
}

/** The JSON parameter of outcomeUpdateSql. Each response goes in as the JSON text it already is. */
export function outcomeRows(outcomes: readonly RecordedOutcome[]): string {
  const rows = outcomes.map(({ id, outcome, at }) => {
    const columns = JSON.stringify({
      id,
      status: outcome.status,
      result_code: outcome.resultCode,
      connector_references: outcome.connectorReferences,
      scheme_transaction_id: outcome.schemeTransactionId,
      updated_at: at,
    });
    return `${columns.slice(0, -1)},"response":${outcome.responseJson}}`;
  });
  return `[${rows.join(',')}]`;
}

/**
 * The UPDATE that records outcomes given as outcomeRows() in the parameter `param`; a statement
 * of its own, or a leading CTE of a statement that writes more in the same breath.
 */
export function outcomeUpdateSql(param: string): string {
  return `UPDATE transactions t SET status = v.status, result_code = v.result_code, connector_references = v.connector_references,
       scheme_transaction_id = v.scheme_transaction_id, response = v.response, updated_at = v.updated_at
       FROM json_populate_recordset(NULL::transactions, ${param}::json) v WHERE t.id = v.id`;
}

/** Does another capture or refund with sequence=FINAL still stand on this parent? */
export async function hasStandingFinalChild(db: Queryable, parentId: string, paymentType: PaymentType, exceptId: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM transactions WHERE parent_id = $1 AND payment_type = $2 AND is_final AND status <> 'rejected' AND id <> $3 LIMIT 1`,
    [parentId, paymentType, exceptId],
  );
  return rows.length > 0;
}
