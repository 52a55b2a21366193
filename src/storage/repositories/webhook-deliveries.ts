import type { Queryable } from '../port.js';
import type { WebhookStatus } from './webhooks.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';
export type DeliveryPurpose = 'event' | 'test';
export type AttemptTrigger = 'worker' | 'test' | 'resend';

/** Everything one attempt needs: the target, its key and the body. */
export interface DeliveryToSend {
  readonly id: string;
  readonly notificationId: string;
  readonly webhookId: string | null;
  readonly purpose: DeliveryPurpose;
  readonly status: DeliveryStatus;
  readonly attemptCount: number;
  readonly firstAttemptAt: Date | null;
  readonly url: string;
  /** Null for a notificationUrl: it has no key, so its body goes in clear. */
  readonly secret: string | null;
  readonly webhookStatus: WebhookStatus | null;
  readonly webhookDeleted: boolean;
  readonly notificationType: string;
  readonly notificationAction: string | null;
  /** The notification's body; null when it names a transaction, whose stored response follows. */
  readonly body: string | null;
  readonly transactionResponse: Readonly<Record<string, unknown>> | null;
  /** When the event the notification reports happened (its row, written with the change: outbox). */
  readonly eventAt: Date;
  /**
   * The receiving entity's connector-details setting (the webhook's entity, or for a
   * notificationUrl the notification's): false hides them from the body (migration 038).
   */
  readonly showConnectorDetails?: boolean;
  /** The webhook's entity's local receivers (migration 042); none for a notificationUrl. */
  readonly localReceivers?: readonly string[];
}

interface DeliveryRow {
  id: string;
  notification_id: string;
  webhook_id: string | null;
  purpose: DeliveryPurpose;
  status: DeliveryStatus;
  attempt_count: number;
  first_attempt_at: Date | null;
  url: string;
  secret: string | null;
  webhook_status: WebhookStatus | null;
  webhook_deleted: boolean;
  type: string;
  action: string | null;
  body: string | null;
  transaction_response: Record<string, unknown> | null;
  event_at: Date;
  show_connector_details: boolean | null;
  local_webhook_receivers: string | null;
}

const DELIVERY_SELECT = `
  SELECT d.id, d.notification_id, d.webhook_id, d.purpose, d.status, d.attempt_count, d.first_attempt_at,
         COALESCE(w.url, d.url) AS url, w.secret, w.status AS webhook_status, (w.deleted_at IS NOT NULL) AS webhook_deleted,
         n.type, n.action, n.body, t.response AS transaction_response, n.created_at AS event_at,
         e.show_connector_details, CASE WHEN w.id IS NOT NULL THEN e.local_webhook_receivers END AS local_webhook_receivers
    FROM webhook_deliveries d
    JOIN notifications n ON n.id = d.notification_id
    LEFT JOIN webhooks w ON w.id = d.webhook_id
    LEFT JOIN transactions t ON t.id = n.transaction_id
    LEFT JOIN entities e ON e.id = COALESCE(w.entity_id, n.entity_id)`;

function toDelivery(row: DeliveryRow): DeliveryToSend {
  return {
    id: row.id,
    notificationId: row.notification_id,
    webhookId: row.webhook_id,
    purpose: row.purpose,
    status: row.status,
    attemptCount: row.attempt_count,
    firstAttemptAt: row.first_attempt_at,
    url: row.url,
    secret: row.secret,
    webhookStatus: row.webhook_status,
    webhookDeleted: row.webhook_deleted,
    notificationType: row.type,
    notificationAction: row.action,
    body: row.body,
    transactionResponse: row.transaction_response,
    eventAt: row.event_at,
    showConnectorDetails: row.show_connector_details ?? true,
    localReceivers: row.local_webhook_receivers ? row.local_webhook_receivers.split(',') : [],
  };
}

/** The deliveries of a batch of jobs, in one query. */
export async function loadDeliveries(db: Queryable, ids: readonly string[]): Promise<Map<string, DeliveryToSend>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE d.id = ANY($1::bpchar[])`, [[...ids]]);
  return new Map(rows.map((row) => [row.id, toDelivery(row)]));
}

export async function findDelivery(db: Queryable, id: string): Promise<DeliveryToSend | undefined> {
  const { rows } = await db.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE d.id = $1`, [id]);
  return rows[0] ? toDelivery(rows[0]) : undefined;
}

/** One attempt, and what it means for its delivery. */
export interface AttemptWrite {
  readonly deliveryId: string;
  readonly trigger: AttemptTrigger;
  readonly attemptedAt: Date;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
  readonly acknowledged: boolean;
  /**
   * For a delivery still pending: 'pending' with nextAttemptAt to retry, 'failed' to give up.
   * Null leaves the status as it is (an operator's resend). An acknowledgement always delivers.
   */
  readonly nextStatus: 'pending' | 'failed' | null;
  readonly nextAttemptAt: Date | null;
}

/**
 * Records attempts and moves their deliveries on, in two statements for the whole batch. A
 * delivery that is no longer pending (delivered by a resend meanwhile, cancelled) keeps its status.
 */
export async function recordAttempts(tx: Queryable, attempts: readonly AttemptWrite[]): Promise<void> {
  if (attempts.length === 0) return;
  const columns = [
    attempts.map((a) => a.deliveryId),
    attempts.map((a) => a.trigger),
    attempts.map((a) => a.attemptedAt.toISOString()),
    attempts.map((a) => (a.httpStatus === null ? null : String(a.httpStatus))),
    attempts.map((a) => a.error),
    attempts.map((a) => String(Math.max(0, Math.round(a.latencyMs)))),
    attempts.map((a) => String(a.acknowledged)),
    attempts.map((a) => a.nextStatus),
    attempts.map((a) => a.nextAttemptAt?.toISOString() ?? null),
  ] as string[][];
  const unnest = `unnest($1::bpchar[], $2::text[], $3::timestamptz[], $4::int[], $5::text[], $6::int[], $7::bool[], $8::text[], $9::timestamptz[])
      AS a(delivery_id, trigger, attempted_at, http_status, error, latency_ms, acknowledged, next_status, next_attempt_at)`;
  await tx.query(
    `INSERT INTO webhook_attempts (delivery_id, webhook_id, trigger, attempted_at, http_status, error, latency_ms, acknowledged)
     SELECT a.delivery_id, d.webhook_id, a.trigger, a.attempted_at, a.http_status, a.error, a.latency_ms, a.acknowledged
       FROM ${unnest} JOIN webhook_deliveries d ON d.id = a.delivery_id`,
    columns,
  );
  await tx.query(
    `UPDATE webhook_deliveries d SET
        attempt_count = d.attempt_count + 1,
        first_attempt_at = COALESCE(d.first_attempt_at, a.attempted_at),
        status = CASE WHEN a.acknowledged THEN 'delivered'
                      WHEN d.status = 'pending' AND a.next_status IS NOT NULL THEN a.next_status
                      ELSE d.status END,
        next_attempt_at = CASE WHEN a.acknowledged THEN NULL
                               WHEN d.status = 'pending' AND a.next_status = 'pending' THEN a.next_attempt_at
                               WHEN d.status = 'pending' AND a.next_status = 'failed' THEN NULL
                               ELSE d.next_attempt_at END,
        delivered_at = CASE WHEN a.acknowledged THEN COALESCE(d.delivered_at, a.attempted_at) ELSE d.delivered_at END,
        updated_at = a.attempted_at
       FROM ${unnest}
      WHERE d.id = a.delivery_id`,
    columns,
  );
}

/** Stops deliveries that will not be attempted: their webhook was deactivated or deleted. */
export async function cancelDeliveries(tx: Queryable, ids: readonly string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    `UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, updated_at = $2
      WHERE id = ANY($1::bpchar[]) AND status = 'pending'`,
    [[...ids], at],
  );
}

export async function cancelPendingDeliveriesOfWebhook(tx: Queryable, webhookId: string, at: Date): Promise<number> {
  const result = await tx.query(
    `UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, updated_at = $2
      WHERE webhook_id = $1 AND status = 'pending'`,
    [webhookId, at],
  );
  return result.rowCount;
}

export interface AttemptListing {
  readonly attemptId: string;
  readonly deliveryId: string;
  readonly notificationId: string;
  readonly type: string;
  readonly action: string | null;
  readonly trigger: AttemptTrigger;
  readonly attemptedAt: Date;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
  readonly acknowledged: boolean;
  readonly deliveryStatus: DeliveryStatus;
}

/** The latest attempts to one webhook, newest first. */
export async function listAttempts(db: Queryable, webhookId: string, limit: number): Promise<AttemptListing[]> {
  const { rows } = await db.query<{
    id: bigint; delivery_id: string; notification_id: string; type: string; action: string | null; trigger: AttemptTrigger;
    attempted_at: Date; http_status: number | null; error: string | null; latency_ms: number; acknowledged: boolean; status: DeliveryStatus;
  }>(
    `SELECT a.id, a.delivery_id, d.notification_id, n.type, n.action, a.trigger, a.attempted_at, a.http_status, a.error,
            a.latency_ms, a.acknowledged, d.status
       FROM webhook_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id
       JOIN notifications n ON n.id = d.notification_id
      WHERE a.webhook_id = $1
      ORDER BY a.id DESC
      LIMIT $2`,
    [webhookId, limit],
  );
  return rows.map((r) => ({
    attemptId: String(r.id),
    deliveryId: r.delivery_id,
    notificationId: r.notification_id,
    type: r.type,
    action: r.action,
    trigger: r.trigger,
    attemptedAt: r.attempted_at,
    httpStatus: r.http_status,
    error: r.error,
    latencyMs: r.latency_ms,
    acknowledged: r.acknowledged,
    deliveryStatus: r.status,
  }));
}
