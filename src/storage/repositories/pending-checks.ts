import { listPendingQueue } from './console/pending-queue.js';
import type { Queryable } from '../port.js';

/** The resolution record of one pending transaction (see migration 006). */
export interface PendingCheck {
  readonly transactionId: string;
  readonly entityId: string;
  readonly attempts: number;
  readonly lastCheckedAt: Date | null;
  readonly lastAnswer: string | null;
  readonly nextCheckAt: Date;
  readonly resolvedAt: Date | null;
  readonly resolvedBy: ResolvedBy | null;
  readonly resolvedCode: string | null;
  readonly reason: string | null;
  readonly createdAt: Date;
}

export type ResolvedBy = 'status' | 'horizon' | 'operator' | 'outcome';

interface PendingCheckRow {
  transaction_id: string;
  entity_id: string;
  attempts: number;
  last_checked_at: Date | null;
  last_answer: string | null;
  next_check_at: Date;
  resolved_at: Date | null;
  resolved_by: ResolvedBy | null;
  resolved_code: string | null;
  reason: string | null;
  created_at: Date;
}

function toCheck(row: PendingCheckRow): PendingCheck {
  return {
    transactionId: row.transaction_id,
    entityId: row.entity_id,
    attempts: row.attempts,
    lastCheckedAt: row.last_checked_at,
    lastAnswer: row.last_answer,
    nextCheckAt: row.next_check_at,
    resolvedAt: row.resolved_at,
    resolvedBy: row.resolved_by,
    resolvedCode: row.resolved_code,
    reason: row.reason,
    createdAt: row.created_at,
  };
}

export const RESOLVE_PENDING_JOB = 'resolve-pending';
export const SWEEP_PENDING_JOB = 'sweep-pending';

/**
 * The sweep: every transaction pending since before `createdBefore` that has no check yet gets
 * one, with its job (due at once), in one statement. Walks the partial index of pending rows, so
 * its cost follows the few pending transactions, not the table. Answers how many it added.
 */
export async function addPendingChecks(db: Queryable, sweep: { createdBefore: Date; now: Date; limit: number }): Promise<number> {
  const { rowCount } = await db.query(
    `WITH found AS (
       SELECT t.id, t.entity_id FROM transactions t
        WHERE t.status = 'pending' AND t.created_at <= $1
          AND NOT EXISTS (SELECT 1 FROM pending_checks c WHERE c.transaction_id = t.id)
          -- Waiting for its shopper, not for an acquirer: the redirect's expiry ends it.
          AND NOT EXISTS (SELECT 1 FROM shopper_redirects r WHERE r.transaction_id = t.id AND r.state = 'open')
        ORDER BY t.created_at LIMIT $3
     ), added AS (
       INSERT INTO pending_checks (transaction_id, entity_id, next_check_at, created_at)
       SELECT id, entity_id, $2, $2 FROM found
       ON CONFLICT (transaction_id) DO NOTHING
       RETURNING transaction_id
     )
     INSERT INTO jobs (kind, payload, run_at, created_at)
     SELECT '${RESOLVE_PENDING_JOB}', jsonb_build_object('transactionId', transaction_id), $2, $2 FROM added`,
    [sweep.createdBefore, sweep.now, sweep.limit],
  );
  return rowCount;
}

/**
 * Marks up to `limit` rows pending since before `createdBefore` as pending long (migration 064),
 * which enters each into the search's wide index of such rows. Rows an operation holds locked
 * are skipped, not waited for: the next sweep marks them if they are still pending. Answers how
 * many it marked.
 */
export async function markLongPending(db: Queryable, sweep: { createdBefore: Date; limit: number }): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE transactions SET long_pending = true
      WHERE id IN (SELECT id FROM transactions
                    WHERE status = 'pending' AND NOT long_pending AND created_at <= $1
                    ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
        AND status = 'pending'`,
    [sweep.createdBefore, sweep.limit],
  );
  return rowCount;
}

/**
 * One transaction handed to the status checks at once, with its job due `now`, if it is still
 * pending and has no check yet: what an expired provider redirect becomes, since the shopper may
 * have paid at the provider after leaving. Answers whether a check was added.
 */
export async function addPendingCheckOf(db: Queryable, transactionId: string, now: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `WITH added AS (
       INSERT INTO pending_checks (transaction_id, entity_id, next_check_at, created_at)
       SELECT t.id, t.entity_id, $2, $2 FROM transactions t WHERE t.id = $1 AND t.status = 'pending'
       ON CONFLICT (transaction_id) DO NOTHING
       RETURNING transaction_id
     )
     INSERT INTO jobs (kind, payload, run_at, created_at)
     SELECT '${RESOLVE_PENDING_JOB}', jsonb_build_object('transactionId', transaction_id), $2, $2 FROM added`,
    [transactionId, now],
  );
  return rowCount > 0;
}

export async function findPendingCheck(db: Queryable, transactionId: string): Promise<PendingCheck | undefined> {
  const { rows } = await db.query<PendingCheckRow>('SELECT * FROM pending_checks WHERE transaction_id = $1', [transactionId]);
  return rows[0] ? toCheck(rows[0]) : undefined;
}

/** A question asked and not answered with an end: when the next one is due. */
export async function recordCheckAttempt(db: Queryable, attempt: { transactionId: string; at: Date; answer: string; nextCheckAt: Date }): Promise<void> {
  await db.query(
    `UPDATE pending_checks SET attempts = attempts + 1, last_checked_at = $2, last_answer = $3, next_check_at = $4
      WHERE transaction_id = $1 AND resolved_at IS NULL`,
    [attempt.transactionId, attempt.at, attempt.answer, attempt.nextCheckAt],
  );
}

/** How the transaction ended; a transaction that ended without a check (an operator) gets its record here. */
export interface ResolutionRecord {
  readonly transactionId: string;
  readonly entityId: string;
  readonly at: Date;
  readonly by: ResolvedBy;
  readonly code: string;
  readonly reason: string | null;
  /** The connector answered (a status check): counted as an attempt. */
  readonly answered: boolean;
}

export async function recordResolution(db: Queryable, resolution: ResolutionRecord): Promise<void> {
  await recordResolutions(db, [resolution]);
}

/** The resolution records of transactions ended together (one statement); each transaction once. */
export async function recordResolutions(db: Queryable, resolutions: readonly ResolutionRecord[]): Promise<void> {
  if (resolutions.length === 0) return;
  await db.query(
    `INSERT INTO pending_checks (transaction_id, entity_id, attempts, last_checked_at, last_answer, next_check_at, resolved_at, resolved_by, resolved_code, reason, created_at)
     SELECT v.transaction_id, v.entity_id, CASE WHEN v.answered THEN 1 ELSE 0 END, CASE WHEN v.answered THEN v.at END, CASE WHEN v.answered THEN v.code END,
            v.at, v.at, v.by, v.code, v.reason, v.at
       FROM json_to_recordset($1::json) AS v(transaction_id bpchar, entity_id bpchar, at timestamptz, by text, code text, reason text, answered boolean)
     ON CONFLICT (transaction_id) DO UPDATE SET
       attempts = pending_checks.attempts + CASE WHEN EXCLUDED.last_checked_at IS NOT NULL THEN 1 ELSE 0 END,
       last_checked_at = coalesce(EXCLUDED.last_checked_at, pending_checks.last_checked_at),
       last_answer = CASE WHEN EXCLUDED.last_checked_at IS NOT NULL THEN EXCLUDED.last_answer ELSE pending_checks.last_answer END,
       resolved_at = EXCLUDED.resolved_at, resolved_by = EXCLUDED.resolved_by, resolved_code = EXCLUDED.resolved_code, reason = EXCLUDED.reason`,
    [JSON.stringify(resolutions.map((r) => ({ transaction_id: r.transactionId, entity_id: r.entityId, at: r.at, by: r.by, code: r.code, reason: r.reason, answered: r.answered })))],
  );
}

export interface OpenPendingTransaction {
  readonly transactionId: string;
  readonly entityId: string;
  readonly paymentType: string;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly createdAt: Date;
  readonly connectorId: string;
  readonly attempts: number;
  readonly lastCheckedAt: Date | null;
  readonly lastAnswer: string | null;
  readonly nextCheckAt: Date | null;
}

/** Every transaction still pending, oldest first, with its check if it has one (for operators): the console's queue query, unfiltered. */
export async function listOpenPending(db: Queryable, limit: number): Promise<OpenPendingTransaction[]> {
  const rows = await listPendingQueue(db, { entityIds: null, limit });
  return rows.map((r) => ({
    transactionId: r.transactionId,
    entityId: r.entityId,
    paymentType: r.paymentType,
    amountMinor: r.amountMinor,
    currency: r.currency,
    createdAt: r.createdAt,
    connectorId: r.connectorId,
    attempts: r.attempts,
    lastCheckedAt: r.lastCheckedAt,
    lastAnswer: r.lastAnswer,
    nextCheckAt: r.nextCheckAt,
  }));
}
