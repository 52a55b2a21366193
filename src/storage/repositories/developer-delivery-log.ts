import type { Queryable } from '../port.js';
import type { AttemptTrigger, DeliveryStatus } from './webhook-deliveries.js';

/** One attempt to deliver a notification to a webhook, as the delivery log lists it. */
export interface DeliveryLogEntry {
  readonly attemptId: bigint;
  readonly deliveryId: string;
  readonly notificationId: string;
  readonly type: string;
  readonly action: string | null;
  readonly transactionId: string | null;
  readonly trigger: AttemptTrigger;
  readonly attemptedAt: Date;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
  readonly acknowledged: boolean;
  readonly deliveryStatus: DeliveryStatus;
}

/**
 * A webhook's attempts, newest first, keyset-paged by attempt id. The one read of the developers'
 * delivery log: should the payment detail's per-attempt store (issue 31) become another table,
 * only this function changes.
 */
export async function listDeliveryLog(db: Queryable, webhookId: string, before: bigint | undefined, limit: number): Promise<DeliveryLogEntry[]> {
  const { rows } = await db.query<{
    id: bigint | string; delivery_id: string; notification_id: string; type: string; action: string | null; transaction_id: string | null;
    trigger: AttemptTrigger; attempted_at: Date; http_status: number | null; error: string | null; latency_ms: number; acknowledged: boolean; status: DeliveryStatus;
  }>(
    `SELECT a.id, a.delivery_id, d.notification_id, n.type, n.action, n.transaction_id, a.trigger, a.attempted_at, a.http_status,
            a.error, a.latency_ms, a.acknowledged, d.status
       FROM webhook_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id
       JOIN notifications n ON n.id = d.notification_id
      WHERE a.webhook_id = $1 AND ($2::int8 IS NULL OR a.id < $2::int8)
      ORDER BY a.id DESC
      LIMIT $3`,
    [webhookId, before === undefined ? null : String(before), limit],
  );
  return rows.map((r) => ({
    attemptId: BigInt(r.id), deliveryId: r.delivery_id.trim(), notificationId: r.notification_id.trim(), type: r.type, action: r.action,
    transactionId: r.transaction_id?.trim() ?? null, trigger: r.trigger, attemptedAt: r.attempted_at, httpStatus: r.http_status === null ? null : Number(r.http_status),
    error: r.error, latencyMs: Number(r.latency_ms), acknowledged: r.acknowledged, deliveryStatus: r.status,
  }));
}
