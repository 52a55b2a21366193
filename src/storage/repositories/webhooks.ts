import type { Queryable } from '../port.js';

export type WebhookStatus = 'pending' | 'active' | 'inactive';

export interface WebhookRecord {
  readonly id: string;
  readonly entityId: string;
  readonly url: string;
  readonly status: WebhookStatus;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly activatedAt: Date | null;
  /** The notification types it is sent (migration 037; domain/webhook-notification-types.ts). */
  readonly notificationTypes: readonly string[];
}

interface WebhookRow {
  id: string;
  entity_id: string;
  url: string;
  status: WebhookStatus;
  created_at: Date;
  updated_at: Date;
  activated_at: Date | null;
  notification_types: string[];
}

// Never SELECT *: the secret leaves the table only where a notification is encrypted.
const WEBHOOK_COLUMNS = 'id, entity_id, url, status, created_at, updated_at, activated_at, notification_types';

function toRecord(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    entityId: row.entity_id,
    url: row.url,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    activatedAt: row.activated_at,
    notificationTypes: row.notification_types,
  };
}

export async function insertWebhook(tx: Queryable, webhook: WebhookRecord & { readonly secret: string }): Promise<void> {
  await tx.query(
    `INSERT INTO webhooks (id, entity_id, url, secret, status, created_at, updated_at, activated_at, notification_types)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[])`,
    [webhook.id, webhook.entityId, webhook.url, webhook.secret, webhook.status, webhook.createdAt, webhook.updatedAt, webhook.activatedAt, [...webhook.notificationTypes]],
  );
}

/** A webhook that is not deleted. */
export async function findWebhook(db: Queryable, id: string): Promise<WebhookRecord | undefined> {
  const { rows } = await db.query<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1 AND deleted_at IS NULL`, [id]);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

/** Webhooks that are not deleted, of one entity or of all. */
export async function listWebhooks(db: Queryable, entityId: string | undefined): Promise<WebhookRecord[]> {
  const { rows } = await db.query<WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks
      WHERE deleted_at IS NULL AND ($1::text IS NULL OR entity_id = $1)
      ORDER BY created_at, id`,
    [entityId ?? null],
  );
  return rows.map(toRecord);
}

/**
 * Moves a webhook to `status` when its current status is one of `from`; false otherwise (unknown,
 * deleted, or in another status). Activation stamps activated_at.
 */
export async function changeWebhookStatus(
  db: Queryable,
  id: string,
  change: { readonly to: WebhookStatus; readonly from: readonly WebhookStatus[]; readonly at: Date },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE webhooks SET status = $2, updated_at = $4,
            activated_at = CASE WHEN $2 = 'active' THEN $4 ELSE activated_at END
      WHERE id = $1 AND deleted_at IS NULL AND status = ANY($3::text[])`,
    [id, change.to, [...change.from], change.at],
  );
  return result.rowCount > 0;
}

/** Activates the webhooks among `ids` that still wait for their test (a test was acknowledged). */
export async function activatePendingWebhooks(tx: Queryable, ids: readonly string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    `UPDATE webhooks SET status = 'active', activated_at = $2, updated_at = $2
      WHERE id = ANY($1::bpchar[]) AND status = 'pending' AND deleted_at IS NULL`,
    [[...ids], at],
  );
}

export async function markWebhookDeleted(db: Queryable, id: string, at: Date): Promise<boolean> {
  const result = await db.query('UPDATE webhooks SET deleted_at = $2, updated_at = $2 WHERE id = $1 AND deleted_at IS NULL', [id, at]);
  return result.rowCount > 0;
}

export interface NewNotification {
  readonly id: string;
  readonly entityId: string;
  readonly type: string;
  readonly action: string | null;
  /**
   * The exact JSON every receiver gets; null when the notification names its transaction instead,
   * and the body is built from the transaction's stored response at delivery.
   */
  readonly body: string | null;
  readonly transactionId?: string | null | undefined;
  readonly createdAt: Date;
}

export interface FanOut {
  readonly notification: NewNotification;
  /** A request's notificationUrl, delivered besides the webhooks. */
  readonly notificationUrl: string | null;
  /** The job kind that delivers one delivery. */
  readonly jobKind: string;
  /** The traceparent of the request that causes it (tracing on only): its delivery jobs carry it. */
  readonly traceParent?: string | undefined;
}

/** The JSON parameter of fanOutSql. */
export function fanOutRows(fanOuts: readonly FanOut[]): string {
  return JSON.stringify(fanOuts.map(({ notification: n, notificationUrl, jobKind, traceParent }) => ({
    id: n.id, entity_id: n.entityId, type: n.type, action: n.action, body: n.body, transaction_id: n.transactionId ?? null,
    created_at: n.createdAt, notification_url: notificationUrl, job_kind: jobKind, trace_parent: traceParent ?? null,
  })));
}

/**
 * The outbox write of events given as fanOutRows() in the parameter `param`, as the tail of a WITH
 * statement (so that another write can lead it as a CTE): each notification, one delivery per
 * active webhook of its entity and (for a channel) of its merchant that subscribes to its type,
 * one for its notificationUrl (which the request asked for, whatever its type),
 * and one job per delivery; with `changedTransactions` (the name of a CTE of transaction ids),
 * only the notifications of those transactions. A notification without any target is not written. Delivery ids derive
 * from the notification and the target, so they are unique without another id source. The
 * statement's row count is the number of deliveries queued.
 */
export function fanOutSql(param: string, changedTransactions?: string): string {
  // A PAYMENT notification only for a transaction the leading write did change (see outcomeUpdateSql).
  const onlyChanged = changedTransactions ? `WHERE i.transaction_id IS NULL OR i.transaction_id IN (SELECT id FROM ${changedTransactions})` : '';
  return `input AS (
       SELECT * FROM json_to_recordset(${param}::json)
         AS i(id bpchar, entity_id bpchar, type text, action text, body text, transaction_id bpchar, created_at timestamptz,
              notification_url text, job_kind text, trace_parent text)
       ${onlyChanged}
     ), targets AS (
       -- Per notification, an index lookup of its entity's and its merchant's webhooks. LATERAL
       -- with OFFSET 0 (which keeps the planner from flattening it into a join) keeps it so,
       -- whatever the sizes of the tables when a plan is made and kept.
       SELECT i.id AS notification_id, w.id AS webhook_id, NULL::text AS url
         FROM input i CROSS JOIN LATERAL (
           SELECT w.id FROM webhooks w
            WHERE w.entity_id = ANY (ARRAY[i.entity_id, (SELECT merchant_id FROM entities WHERE id = i.entity_id)])
              AND w.status = 'active' AND w.deleted_at IS NULL AND i.type = ANY (w.notification_types)
           OFFSET 0
         ) w
       UNION ALL
       SELECT i.id, NULL, i.notification_url FROM input i WHERE i.notification_url IS NOT NULL
     ), notification AS (
       INSERT INTO notifications (id, entity_id, type, action, body, transaction_id, created_at)
       SELECT i.id, i.entity_id, i.type, i.action, i.body, i.transaction_id, i.created_at FROM input i
        WHERE EXISTS (SELECT 1 FROM targets t WHERE t.notification_id = i.id)
       RETURNING id
     ), deliveries AS (
       INSERT INTO webhook_deliveries (id, notification_id, webhook_id, url, purpose, status, next_attempt_at, created_at, updated_at)
       SELECT md5(n.id || ':' || COALESCE(t.webhook_id, 'notificationUrl')), n.id, t.webhook_id, t.url, 'event', 'pending',
              i.created_at, i.created_at, i.created_at
         FROM notification n JOIN targets t ON t.notification_id = n.id JOIN input i ON i.id = n.id
       RETURNING id, notification_id
     )
     INSERT INTO jobs (kind, payload, run_at, created_at, trace_parent)
     SELECT i.job_kind, jsonb_build_object('deliveryId', d.id), i.created_at, i.created_at, i.trace_parent FROM deliveries d JOIN input i ON i.id = d.notification_id`;
}

/** The outbox write of any number of events in one statement; answers how many deliveries were queued. */
export async function fanOutNotifications(tx: Queryable, fanOuts: readonly FanOut[]): Promise<number> {
  const { rowCount } = await tx.query(`WITH ${fanOutSql('$1')}`, [fanOutRows(fanOuts)]);
  return rowCount;
}

/** A notification for exactly one webhook (its test), with its delivery; returns the delivery id. */
export async function insertSingleDelivery(
  tx: Queryable,
  notification: NewNotification,
  target: { readonly webhookId: string; readonly purpose: 'event' | 'test' },
): Promise<string> {
  await tx.query('INSERT INTO notifications (id, entity_id, type, action, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
    notification.id,
    notification.entityId,
    notification.type,
    notification.action,
    notification.body,
    notification.createdAt,
  ]);
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (id, notification_id, webhook_id, purpose, status, next_attempt_at, created_at, updated_at)
     VALUES (md5($1::text || ':' || $2::text), $1, $2, $3, 'pending', $4, $4, $4) RETURNING id`,
    [notification.id, target.webhookId, target.purpose, notification.createdAt],
  );
  return rows[0]!.id;
}
