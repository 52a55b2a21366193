import type { PaymentType, TransactionState, TransactionStatus } from '../../domain/transaction.js';
import { paymentSearchTerms } from '../../domain/payment-search/search-terms.js';
import { createBatchedLookup, LOOKUP_BATCH, perStorage } from '../batched-lookup.js';
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
  /** The operator's route that chose the connector; null for the test system's built-in ones. */
  readonly routeId: string | null;
  /** The Idempotency-Key of the request that created it (unique per entity). */
  readonly idempotencyClaimId: string | null;
}

export interface TransactionRow {
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
  route_id: string | null;
  idempotency_claim_id: string | null;
}

export function toStored(row: TransactionRow): StoredTransaction {
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
    routeId: row.route_id,
    idempotencyClaimId: row.idempotency_claim_id,
  };
}

const COLUMNS = `id, entity_id, parent_id, payment_type, status, result_code, amount_minor, currency,
  captured_minor, refunded_minor, capture_count, max_captures, capture_closed, refund_closed, reversed_at, is_final,
  payment_brand, payment_method, merchant_transaction_id, short_id, connector_id, connector_references,
  scheme_transaction_id, response, created_at, updated_at, route_id, idempotency_claim_id`;

/**
 * The console search's terms (migration 048) in SQL, for an INSERT that does not go through
 * transactionRows (which makes them in the gateway: paymentSearchTerms): every INSERT of a
 * transaction names them, or the payment cannot be found by BIN, holder, e-mail, IP …
 */
export const SEARCH_TERMS = 'payment_search_terms(response, merchant_transaction_id, currency, payment_brand, payment_type)';

/** The row as JSON for json_populate_recordset: bigint as text, dates as ISO strings, json nested. */
function toRow(t: StoredTransaction): Record<keyof TransactionRow | 'search_terms', unknown> {
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
    route_id: t.routeId,
    idempotency_claim_id: t.idempotencyClaimId,
    search_terms: paymentSearchTerms(t),
  };
}

/**
 * Any number of rows in one statement (group commit writes the pending rows of concurrent
 * requests together). The rows travel as one JSON parameter (transactionRows); `json`, not
 * `jsonb`, so that the stored response keeps its key order.
 */
export async function insertTransactions(db: Queryable, rows: readonly StoredTransaction[]): Promise<void> {
  await db.query(insertTransactionsSql('$1'), [transactionRows(rows)], { prepareAs: 'insert_transactions' });
}

/** The INSERT of the rows given as transactionRows() in the parameter `param`, alone or after a CTE. */
export function insertTransactionsSql(param: string): string {
  return `INSERT INTO transactions (${COLUMNS}, search_terms) SELECT ${COLUMNS}, search_terms
    FROM json_populate_recordset(NULL::transactions, ${param}::json)`;
}

/** Rows for insertTransactionsSql(). */
export function transactionRows(rows: readonly StoredTransaction[]): string {
  return JSON.stringify(rows.map(toRow));
}

// A merchant's entityId also reaches the transactions of its channels; a channel's only its own.
const ENTITY_SCOPE = `(entity_id = $2 OR entity_id IN (SELECT id FROM entities WHERE merchant_id = $2))`;

/** The transaction with that id, if the entity may see it. */
export async function findTransaction(db: Queryable, entityId: string, id: string): Promise<StoredTransaction | undefined> {
  const { rows } = await db.query<TransactionRow>(`SELECT * FROM transactions WHERE id = $1 AND ${ENTITY_SCOPE}`, [id, entityId]);
  return rows[0] ? toStored(rows[0]) : undefined;
}

/** A transaction by id alone, for the gateway's own jobs (never for a merchant's request). */
export async function findTransactionById(db: Queryable, id: string): Promise<StoredTransaction | undefined> {
  const { rows } = await db.query<TransactionRow>('SELECT * FROM transactions WHERE id = $1', [id]);
  return rows[0] ? toStored(rows[0]) : undefined;
}

/** findTransactionById, batched with the look-ups of concurrent requests (batched-lookup.ts). */
export const lookUpTransactionById = perStorage((db: Queryable) => createBatchedLookup<string, StoredTransaction>({
  ...LOOKUP_BATCH,
  read: async (ids) => {
    const { rows } = await db.query<TransactionRow>('SELECT * FROM transactions WHERE id = ANY($1::bpchar[])', [ids]);
    return new Map(rows.map((row) => [row.id, toStored(row)]));
  },
}));

/** The transaction written under an Idempotency-Key's claim, if the entity may see it. */
export async function findTransactionByIdempotencyClaim(db: Queryable, entityId: string, claimId: string): Promise<StoredTransaction | undefined> {
  const { rows } = await db.query<TransactionRow>(`SELECT * FROM transactions WHERE idempotency_claim_id = $1 AND ${ENTITY_SCOPE}`, [claimId, entityId]);
  return rows[0] ? toStored(rows[0]) : undefined;
}

/**
 * Locks a transaction by id, whatever its entity, for a change of its outcome; answers it only
 * while it is still pending (a second outcome would release or notify twice). FOR NO KEY UPDATE,
 * the lock its own UPDATE takes: two outcome writers still exclude each other, but a row that
 * only references it (the sweep's pending check, a notification) does not wait for it, which
 * closed a deadlock between an operator's resolution and the sweep (40P01, a 500).
 */
export async function lockPendingTransaction(db: Queryable, id: string): Promise<StoredTransaction | undefined> {
  const { rows } = await db.query<TransactionRow>('SELECT * FROM transactions WHERE id = $1 FOR NO KEY UPDATE', [id]);
  const row = rows[0];
  return row && row.status === 'pending' ? toStored(row) : undefined;
}

/**
 * lockPendingTransaction for several at once, in the order of their ids (so that two groups
 * locking overlapping sets queue rather than deadlock): the ones still pending, by id.
 */
export async function lockPendingTransactions(db: Queryable, ids: readonly string[]): Promise<Map<string, StoredTransaction>> {
  const { rows } = await db.query<TransactionRow>('SELECT * FROM transactions WHERE id = ANY($1::bpchar[]) ORDER BY id FOR NO KEY UPDATE', [ids]);
  return new Map(rows.filter((row) => row.status === 'pending').map((row) => [row.id, toStored(row)]));
}

/** The unique index behind "never twice": a second transaction under one claim is refused. */
export const IDEMPOTENCY_CLAIM_INDEX = 'transactions_idempotency_claim_idx';

/** A transaction asked for by an entity: found only where that entity may see it. */
export interface TransactionLookup {
  readonly id: string;
  readonly entityId: string;
}

/** Same, holding the row lock until the transaction ends: the rule for every change of totals. */
export async function lockTransaction(db: Queryable, entityId: string, id: string): Promise<StoredTransaction | undefined> {
  return (await lockTransactions(db, [{ id, entityId }])).get(visibilityKey({ id, entityId }));
}

/** The key of lockTransactions' answer: a transaction as one entity asked for it. */
export const visibilityKey = (lookup: TransactionLookup): string => `${lookup.id}/${lookup.entityId}`;

/**
 * Several transactions locked at once (the reservations of a group), each found only where the
 * entity that asks may see it; keyed by visibilityKey. The rows are locked in id order, whatever
 * the order asked, so that two groups sharing parents, in this process or another, never
 * deadlock: the one that comes second waits.
 */
export async function lockTransactions(db: Queryable, lookups: readonly TransactionLookup[]): Promise<Map<string, StoredTransaction>> {
  const { rows } = await db.query<TransactionRow & { asked_by: string }>(
    `SELECT t.*, r.entity_id AS asked_by
       FROM (SELECT DISTINCT * FROM unnest($1::char(32)[], $2::char(32)[]) AS u(id, entity_id)) r
       JOIN transactions t ON t.id = r.id
      WHERE t.entity_id = r.entity_id OR t.entity_id IN (SELECT id FROM entities WHERE merchant_id = r.entity_id)
      ORDER BY t.id FOR UPDATE OF t`,
    [lookups.map((l) => l.id), lookups.map((l) => l.entityId)],
    { prepareAs: 'lock_transactions' },
  );
  return new Map(rows.map((row) => [visibilityKey({ id: row.id, entityId: row.asked_by }), toStored(row)]));
}

export interface TotalsUpdate {
  readonly capturedMinor: bigint;
  readonly refundedMinor: bigint;
  readonly captureCount: number;
  readonly captureClosed: boolean;
  readonly refundClosed: boolean;
  readonly reversedAt: Date | null;
}

/** A parent's new totals, as of `at`. */
export interface TotalsChange {
  readonly id: string;
  readonly totals: TotalsUpdate;
  readonly at: Date;
}

/** The totals of any number of parents, in one statement. */
export async function updateTotals(db: Queryable, changes: readonly TotalsChange[]): Promise<void> {
  if (changes.length > 0) await db.query(updateTotalsSql('$1'), [totalsRows(changes)]);
}

/** The UPDATE of the totals given as totalsRows() in the parameter `param`: alone, or as a CTE. */
export function updateTotalsSql(param: string): string {
  return `UPDATE transactions t SET captured_minor = v.captured_minor, refunded_minor = v.refunded_minor, capture_count = v.capture_count,
       capture_closed = v.capture_closed, refund_closed = v.refund_closed, reversed_at = v.reversed_at, updated_at = v.updated_at
       FROM json_populate_recordset(NULL::transactions, ${param}::json) v WHERE t.id = v.id`;
}

export function totalsRows(changes: readonly TotalsChange[]): string {
  return JSON.stringify(changes.map(({ id, totals, at }) => ({
    id,
    captured_minor: totals.capturedMinor.toString(),
    refunded_minor: totals.refundedMinor.toString(),
    capture_count: totals.captureCount,
    capture_closed: totals.captureClosed,
    refund_closed: totals.refundClosed,
    reversed_at: totals.reversedAt,
    updated_at: at,
  })));
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
  /** What the risk engine decided, when a rule fired: kept in the row (risk_evaluation), for the operator. */
  readonly riskEvaluation?: object | undefined;
}

/** The JSON parameter of outcomeUpdateSql. Each response goes in as the JSON text it already is. */
export function outcomeRows(outcomes: readonly RecordedOutcome[]): string {
  const rows = outcomes.map(({ id, outcome, at, riskEvaluation }) => {
    const columns = JSON.stringify({
      id,
      status: outcome.status,
      result_code: outcome.resultCode,
      connector_references: outcome.connectorReferences,
      scheme_transaction_id: outcome.schemeTransactionId,
      updated_at: at,
      from_status: 'pending',
      risk_evaluation: riskEvaluation, // left out when undefined: a NULL column, kept by coalesce
    });
    return `${columns.slice(0, -1)},"response":${outcome.responseJson}}`;
  });
  return `[${rows.join(',')}]`;
}

/**
 * The UPDATE that records outcomes given as outcomeRows() in the parameter `param`; a statement
 * of its own, or a leading CTE of a statement that writes more in the same breath. Only a
 * pending transaction takes an outcome, so an answer that comes late (after the resolution job or
 * an operator ended the transaction) changes nothing; it answers the ids it did change.
 * The status to change from travels with each row (from_status) instead of standing in the SQL
 * as a literal: with the literal, the one generic plan the group writes keep (made on empty
 * tables) scanned transactions for pending rows and filtered the join, a cost that grows with
 * every payment in flight; as a join condition it stays a lookup by id.
 */
export function outcomeUpdateSql(param: string): string {
  return `UPDATE transactions t SET status = v.status, result_code = v.result_code, connector_references = v.connector_references,
       scheme_transaction_id = v.scheme_transaction_id, response = v.response, updated_at = v.updated_at,
       risk_evaluation = coalesce(v.risk_evaluation, t.risk_evaluation)
       FROM json_to_recordset(${param}::json) AS v(id bpchar, status text, result_code text, connector_references jsonb,
            scheme_transaction_id text, response json, updated_at timestamptz, from_status text, risk_evaluation jsonb)
      WHERE t.id = v.id AND t.status = v.from_status RETURNING t.id`;
}

/** Does another capture or refund with sequence=FINAL still stand on this parent? */
export async function hasStandingFinalChild(db: Queryable, parentId: string, paymentType: PaymentType, exceptId: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM transactions WHERE parent_id = $1 AND payment_type = $2 AND is_final AND status <> 'rejected' AND id <> $3 LIMIT 1`,
    [parentId, paymentType, exceptId],
  );
  return rows.length > 0;
}
