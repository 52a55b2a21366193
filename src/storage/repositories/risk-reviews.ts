import type { Queryable } from '../port.js';

/** A payment the risk engine sent to review, as the queue lists it. */
export interface ReviewQueueRow {
  readonly transactionId: string;
  readonly entityId: string;
  readonly entityName: string;
  readonly paymentType: string;
  readonly status: string;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly capturedMinor: bigint;
  readonly refundedMinor: bigint;
  readonly reversed: boolean;
  readonly score: number;
  readonly fired: unknown;
  readonly card: { readonly bin: string | null; readonly last4: string | null };
  readonly createdAt: Date;
}

interface QueueRow {
  id: string; entity_id: string; entity_name: string; payment_type: string; status: string; amount_minor: string | bigint; currency: string;
  captured_minor: string | bigint; refunded_minor: string | bigint; reversed_at: Date | null; risk_evaluation: { score?: number; fired?: unknown }; card: { bin?: string; last4Digits?: string } | null; created_at: Date;
}

const QUEUE_LIMIT = 200;

/**
 * The payments the engine decided 'review' that succeeded and nobody has decided yet, oldest
 * first (the partial index of migration 055). `merchantId` null: every merchant's (an operator).
 */
export async function listReviewQueue(db: Queryable, merchantId: string | null): Promise<ReviewQueueRow[]> {
  const { rows } = await db.query<QueueRow>(
    `SELECT t.id, t.entity_id, e.name AS entity_name, t.payment_type, t.status, t.amount_minor, t.currency, t.captured_minor, t.refunded_minor,
            t.reversed_at, t.risk_evaluation, t.response -> 'card' AS card, t.created_at
       FROM transactions t JOIN entities e ON e.id = t.entity_id
      WHERE (t.risk_evaluation ->> 'decision') = 'review' AND t.status = 'success'
        AND NOT EXISTS (SELECT FROM risk_reviews r WHERE r.transaction_id = t.id)
        AND ($1::char(32) IS NULL OR e.id = $1 OR e.merchant_id = $1)
      ORDER BY t.created_at, t.id LIMIT ${QUEUE_LIMIT}`,
    [merchantId],
  );
  return rows.map((r) => ({
    transactionId: r.id.trim(), entityId: r.entity_id.trim(), entityName: r.entity_name, paymentType: r.payment_type, status: r.status,
    amountMinor: BigInt(r.amount_minor), currency: r.currency.trim(), capturedMinor: BigInt(r.captured_minor), refundedMinor: BigInt(r.refunded_minor),
    reversed: r.reversed_at !== null, score: r.risk_evaluation.score ?? 0, fired: r.risk_evaluation.fired ?? [],
    card: { bin: r.card?.bin ?? null, last4: r.card?.last4Digits ?? null }, createdAt: r.created_at,
  }));
}

export interface ReviewDecisionRow {
  readonly transactionId: string;
  readonly entityId: string;
  readonly decision: 'accepted' | 'rejected';
  readonly reason: string;
  readonly decidedBy: string;
  readonly decidedAt: Date;
  readonly reversalId: string | null;
}

/** Records the decision; the primary key refuses a second one (a unique violation). */
export async function insertReviewDecision(db: Queryable, d: ReviewDecisionRow): Promise<void> {
  await db.query(
    'INSERT INTO risk_reviews (transaction_id, entity_id, decision, reason, decided_by, decided_at, reversal_id) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [d.transactionId, d.entityId, d.decision, d.reason, d.decidedBy, d.decidedAt, d.reversalId],
  );
}

export async function findReviewDecision(db: Queryable, transactionId: string): Promise<ReviewDecisionRow | undefined> {
  const { rows } = await db.query<{ transaction_id: string; entity_id: string; decision: 'accepted' | 'rejected'; reason: string; decided_by: string; decided_at: Date; reversal_id: string | null }>(
    'SELECT transaction_id, entity_id, decision, reason, decided_by, decided_at, reversal_id FROM risk_reviews WHERE transaction_id = $1',
    [transactionId],
  );
  const r = rows[0];
  return r ? { transactionId: r.transaction_id.trim(), entityId: r.entity_id.trim(), decision: r.decision, reason: r.reason, decidedBy: r.decided_by, decidedAt: r.decided_at, reversalId: r.reversal_id?.trim() ?? null } : undefined;
}

/** The review decisions of the last days (the queue page's "decided" list), newest first. */
export async function listRecentReviewDecisions(db: Queryable, merchantId: string | null, limit = 50): Promise<ReviewDecisionRow[]> {
  const { rows } = await db.query<{ transaction_id: string; entity_id: string; decision: 'accepted' | 'rejected'; reason: string; decided_by: string; decided_at: Date; reversal_id: string | null }>(
    `SELECT r.transaction_id, r.entity_id, r.decision, r.reason, r.decided_by, r.decided_at, r.reversal_id
       FROM risk_reviews r JOIN entities e ON e.id = r.entity_id
      WHERE ($1::char(32) IS NULL OR e.id = $1 OR e.merchant_id = $1)
      ORDER BY r.decided_at DESC LIMIT $2`,
    [merchantId, limit],
  );
  return rows.map((r) => ({ transactionId: r.transaction_id.trim(), entityId: r.entity_id.trim(), decision: r.decision, reason: r.reason, decidedBy: r.decided_by, decidedAt: r.decided_at, reversalId: r.reversal_id?.trim() ?? null }));
}
