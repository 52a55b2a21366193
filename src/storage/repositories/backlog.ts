import type { Queryable } from '../port.js';

/**
 * What is waiting, read when metrics are scraped: the due jobs of each kind, the pending payments.
 * One statement each, over the partial indexes the queue and the pending resolution already keep
 * (jobs_due_idx, transactions_pending_idx), so a scrape reads the backlog and nothing else.
 */

export interface DueJobs {
  readonly kind: string;
  readonly due: number;
  /** When the longest-waiting due job was due. */
  readonly oldestDueAt: Date;
}

/** Jobs due at `now` and not taken by a worker (a claimed job is running), by kind. Parked (failed) jobs are not due. */
export async function dueJobsByKind(db: Queryable, now: Date): Promise<DueJobs[]> {
  const { rows } = await db.query<{ kind: string; due: bigint; oldest_due_at: Date }>(
    `SELECT kind, count(*) AS due, min(run_at) AS oldest_due_at FROM jobs
      WHERE locked_by IS NULL AND failed_at IS NULL AND run_at <= $1
      GROUP BY kind`,
    [now],
  );
  return rows.map((r) => ({ kind: r.kind, due: Number(r.due), oldestDueAt: r.oldest_due_at }));
}

export interface PendingBacklog {
  readonly pending: number;
  /** Creation of the oldest pending payment; null when none is pending. */
  readonly oldestCreatedAt: Date | null;
}

/** Payments still pending (waiting on a connector's answer or a shopper), and the oldest of them. */
export async function pendingBacklog(db: Queryable): Promise<PendingBacklog> {
  const { rows } = await db.query<{ pending: bigint; oldest_created_at: Date | null }>(
    `SELECT count(*) AS pending, min(created_at) AS oldest_created_at FROM transactions WHERE status = 'pending'`,
  );
  return { pending: Number(rows[0]?.pending ?? 0n), oldestCreatedAt: rows[0]?.oldest_created_at ?? null };
}
