import type { Queryable } from '../../port.js';

// RESOLVE_PENDING_JOB of pending-checks.ts, written out: that file lists through this one, and
// the import stays one way.
const RESOLVE_PENDING_JOB = 'resolve-pending';

/** A pending transaction in the queue: what it waits on and when it is asked next. */
export interface QueuedPending {
  readonly transactionId: string;
  readonly entityId: string;
  readonly entityName: string;
  readonly merchantId: string;
  readonly parentId: string | null;
  readonly paymentType: string;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly createdAt: Date;
  readonly connectorId: string;
  readonly resultCode: string;
  readonly attempts: number;
  readonly lastCheckedAt: Date | null;
  readonly lastAnswer: string | null;
  readonly nextCheckAt: Date | null;
  /** The status-check job (jobs table): when it runs, whether a worker holds it now, whether it was given up. */
  readonly job: { readonly runAt: Date; readonly running: boolean; readonly failedAt: Date | null; readonly lastError: string | null } | null;
  /** The shopper's open redirect (a provider page, a 3-D Secure challenge): until when it waits for them. */
  readonly shopperUntil: Date | null;
}

export interface PendingQueueQuery {
  /** The entities the person may see; null for every entity. */
  readonly entityIds: readonly string[] | null;
  readonly merchantId?: string | undefined;
  readonly connectorId?: string | undefined;
  /** Only transactions created at or before this instant (older than an age). */
  readonly createdBefore?: Date | undefined;
  readonly limit: number;
}

interface Row {
  id: string; entity_id: string; entity_name: string; merchant_id: string; parent_id: string | null; payment_type: string; amount_minor: bigint | string; currency: string;
  created_at: Date; connector_id: string; result_code: string; attempts: number | null; last_checked_at: Date | null; last_answer: string | null; next_check_at: Date | null;
  job_run_at: Date | null; job_locked: boolean | null; job_failed_at: Date | null; job_last_error: string | null; shopper_until: Date | null;
}

/**
 * Every transaction still pending, oldest first (the partial index of pending rows), with its
 * check, its status-check job (found by migration 056's index) and the shopper's open redirect.
 * The admin API's and the command line's list and the console's queue are this one query.
 */
export async function listPendingQueue(db: Queryable, query: PendingQueueQuery): Promise<QueuedPending[]> {
  const { rows } = await db.query<Row>(
    `SELECT t.id, t.entity_id, e.name AS entity_name, COALESCE(e.merchant_id, e.id) AS merchant_id, t.parent_id, t.payment_type, t.amount_minor, t.currency,
            t.created_at, t.connector_id, t.result_code, c.attempts, c.last_checked_at, c.last_answer, c.next_check_at,
            j.run_at AS job_run_at, j.locked_by IS NOT NULL AS job_locked, j.failed_at AS job_failed_at, j.last_error AS job_last_error, r.expires_at AS shopper_until
       FROM transactions t
       JOIN entities e ON e.id = t.entity_id
       LEFT JOIN pending_checks c ON c.transaction_id = t.id AND c.resolved_at IS NULL
       LEFT JOIN LATERAL (SELECT run_at, locked_by, failed_at, last_error FROM jobs
                           WHERE kind = '${RESOLVE_PENDING_JOB}' AND payload ->> 'transactionId' = t.id::text ORDER BY run_at LIMIT 1) j ON true
       LEFT JOIN LATERAL (SELECT expires_at FROM shopper_redirects
                           WHERE transaction_id = t.id AND state = 'open' ORDER BY expires_at DESC LIMIT 1) r ON true
      WHERE t.status = 'pending'
        AND ($1::char(32)[] IS NULL OR t.entity_id = ANY($1::char(32)[]))
        AND ($2::text IS NULL OR e.id = $2 OR e.merchant_id = $2)
        AND ($3::text IS NULL OR t.connector_id = $3)
        AND ($4::timestamptz IS NULL OR t.created_at <= $4)
      ORDER BY t.created_at, t.id LIMIT $5`,
    [query.entityIds, query.merchantId ?? null, query.connectorId ?? null, query.createdBefore ?? null, query.limit],
  );
  return rows.map(toQueued);
}

function toQueued(r: Row): QueuedPending {
  return {
    transactionId: r.id, entityId: r.entity_id, entityName: r.entity_name, merchantId: r.merchant_id, parentId: r.parent_id, paymentType: r.payment_type,
    amountMinor: BigInt(r.amount_minor), currency: r.currency, createdAt: r.created_at, connectorId: r.connector_id, resultCode: r.result_code,
    attempts: r.attempts ?? 0, lastCheckedAt: r.last_checked_at, lastAnswer: r.last_answer, nextCheckAt: r.next_check_at,
    job: r.job_run_at ? { runAt: r.job_run_at, running: r.job_locked === true, failedAt: r.job_failed_at, lastError: r.job_last_error } : null,
    shopperUntil: r.shopper_until,
  };
}
