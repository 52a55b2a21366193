import type { Queryable } from '../../port.js';
import type { AttemptTrigger, DeliveryStatus } from '../webhook-deliveries.js';

/** The reads of what happened around a payment's family, for the console's detail page. */

export interface RedirectFact {
  readonly id: string;
  readonly transactionId: string;
  readonly purpose: 'provider' | 'challenge';
  readonly state: string;
  readonly choice: string | null;
  readonly createdAt: Date;
  readonly endedAt: Date | null;
}

/** The shopper redirects of these transactions (without the sealed card or the resume data). */
export async function listRedirectsOf(db: Queryable, transactionIds: readonly string[]): Promise<RedirectFact[]> {
  const { rows } = await db.query<{ id: string; transaction_id: string; purpose: RedirectFact['purpose']; state: string; choice: string | null; created_at: Date; ended_at: Date | null }>(
    `SELECT id, transaction_id, purpose, state, choice, created_at, ended_at FROM shopper_redirects
      WHERE transaction_id = ANY($1::bpchar[]) ORDER BY created_at, id`,
    [[...transactionIds]],
  );
  return rows.map((r) => ({ id: r.id, transactionId: r.transaction_id, purpose: r.purpose, state: r.state, choice: r.choice, createdAt: r.created_at, endedAt: r.ended_at }));
}

export interface AttemptFact {
  readonly attemptedAt: Date;
  readonly trigger: AttemptTrigger;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
  readonly acknowledged: boolean;
}

export interface DeliveryFact {
  readonly deliveryId: string;
  readonly notificationId: string;
  readonly transactionId: string;
  readonly type: string;
  readonly action: string | null;
  readonly createdAt: Date;
  /** The webhook's URL, or the request's notificationUrl. */
  readonly url: string;
  readonly status: DeliveryStatus;
  readonly nextAttemptAt: Date | null;
  readonly webhookDeleted: boolean;
  readonly attempts: AttemptFact[];
}

const MAX_DELIVERIES = 200;

/** Every delivery of the notifications about these transactions, each with its attempts in order. */
export async function listDeliveriesOf(db: Queryable, transactionIds: readonly string[]): Promise<DeliveryFact[]> {
  const { rows } = await db.query<{
    delivery_id: string; notification_id: string; transaction_id: string; type: string; action: string | null; created_at: Date;
    url: string; status: DeliveryStatus; next_attempt_at: Date | null; webhook_deleted: boolean;
  }>(
    `SELECT d.id AS delivery_id, n.id AS notification_id, n.transaction_id, n.type, n.action, n.created_at, COALESCE(w.url, d.url) AS url,
            d.status, d.next_attempt_at, (w.deleted_at IS NOT NULL) AS webhook_deleted
       FROM notifications n
       JOIN webhook_deliveries d ON d.notification_id = n.id
       LEFT JOIN webhooks w ON w.id = d.webhook_id
      WHERE n.transaction_id = ANY($1::bpchar[])
      ORDER BY n.created_at, d.id LIMIT ${MAX_DELIVERIES}`,
    [[...transactionIds]],
  );
  const attempts = await listAttemptsOf(db, rows.map((r) => r.delivery_id));
  return rows.map((r) => ({
    deliveryId: r.delivery_id, notificationId: r.notification_id, transactionId: r.transaction_id, type: r.type, action: r.action,
    createdAt: r.created_at, url: r.url, status: r.status, nextAttemptAt: r.next_attempt_at, webhookDeleted: r.webhook_deleted,
    attempts: attempts.get(r.delivery_id) ?? [],
  }));
}

async function listAttemptsOf(db: Queryable, deliveryIds: readonly string[]): Promise<Map<string, AttemptFact[]>> {
  const byDelivery = new Map<string, AttemptFact[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const { rows } = await db.query<{ delivery_id: string; attempted_at: Date; trigger: AttemptTrigger; http_status: number | null; error: string | null; latency_ms: number; acknowledged: boolean }>(
    `SELECT delivery_id, attempted_at, trigger, http_status, error, latency_ms, acknowledged FROM webhook_attempts
      WHERE delivery_id = ANY($1::bpchar[]) ORDER BY id`,
    [[...deliveryIds]],
  );
  for (const r of rows) {
    const list = byDelivery.get(r.delivery_id) ?? [];
    list.push({ attemptedAt: r.attempted_at, trigger: r.trigger, httpStatus: r.http_status, error: r.error, latencyMs: r.latency_ms, acknowledged: r.acknowledged });
    byDelivery.set(r.delivery_id, list);
  }
  return byDelivery;
}

/** The delivery with that id, if it carries a notification about one of these transactions. */
export async function findDeliveryOfFamily(db: Queryable, deliveryId: string, transactionIds: readonly string[]): Promise<{ readonly transactionId: string } | undefined> {
  const { rows } = await db.query<{ transaction_id: string }>(
    `SELECT n.transaction_id FROM webhook_deliveries d JOIN notifications n ON n.id = d.notification_id
      WHERE d.id = $1 AND n.transaction_id = ANY($2::bpchar[])`,
    [deliveryId, [...transactionIds]],
  );
  return rows[0] ? { transactionId: rows[0].transaction_id } : undefined;
}

export interface SettlementFact {
  readonly recordType: string;
  readonly status: string;
  readonly settlementDate: string;
  readonly batchId: string;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly feeMinor: bigint;
  readonly feeCurrency: string;
  readonly matchingStatus: string;
  readonly matchedIds: readonly string[];
  readonly chargebackId: string | null;
  readonly reasonCode: string | null;
  readonly ingestedAt: Date;
}

/**
 * The settlement records matched to these transactions (a chargeback's and its reversal's record
 * name the payment too), found by the GIN index on matched_ids (migration 050); only the
 * merchant's own records.
 */
export async function listSettlementRecordsOf(db: Queryable, merchantId: string, transactionIds: readonly string[]): Promise<SettlementFact[]> {
  const { rows } = await db.query<{
    record_type: string; status: string; settlement_date: string; batch_id: string; amount_minor: bigint; currency: string; fee_minor: bigint;
    fee_currency: string; matching_status: string; matched_ids: string[]; chargeback_id: string | null; reason_code: string | null; ingested_at: Date;
  }>(
    `SELECT record_type, status, to_char(settlement_date, 'YYYY-MM-DD') AS settlement_date, batch_id, amount_minor, currency, fee_minor, fee_currency,
            matching_status, matched_ids, chargeback_id, reason_code, ingested_at
       FROM settlement_records
      WHERE matched_ids && $2::text[] AND merchant_id = $1
      ORDER BY ingested_at, id LIMIT 200`,
    [merchantId, [...transactionIds]],
  );
  return rows.map((r) => ({
    recordType: r.record_type, status: r.status, settlementDate: r.settlement_date, batchId: r.batch_id, amountMinor: BigInt(r.amount_minor),
    currency: r.currency, feeMinor: BigInt(r.fee_minor), feeCurrency: r.fee_currency, matchingStatus: r.matching_status,
    matchedIds: r.matched_ids.map((id) => id.trim()), chargebackId: r.chargeback_id, reasonCode: r.reason_code, ingestedAt: r.ingested_at,
  }));
}

export interface ScheduleFact {
  readonly id: string;
  readonly status: string;
  readonly endReason: string | null;
  readonly expression: string;
  readonly timeZone: string;
  readonly registrationId: string;
  readonly runs: ReadonlyArray<{ readonly fireAt: Date; readonly attempt: number; readonly outcome: string; readonly transactionId: string | null; readonly resultCode: string | null; readonly ranAt: Date }>;
}

const MAX_RUNS = 100;

/**
 * The schedule behind a payment: the one it created (SD, RS: the schedule's id is the
 * transaction's), or the one whose run made it; with its latest runs.
 */
export async function findScheduleOf(db: Queryable, transactionIds: readonly string[]): Promise<ScheduleFact | undefined> {
  const { rows } = await db.query<{ id: string; status: string; end_reason: string | null; expression: string; time_zone: string; registration_id: string }>(
    `SELECT id, status, end_reason, expression, time_zone, registration_id FROM schedules
      WHERE id = ANY($1::bpchar[]) OR id IN (SELECT schedule_id FROM schedule_runs WHERE transaction_id = ANY($1::bpchar[]))
      LIMIT 1`,
    [[...transactionIds]],
  );
  const s = rows[0];
  if (!s) return undefined;
  const runs = await db.query<{ fire_at: Date; attempt: number; outcome: string; transaction_id: string | null; result_code: string | null; ran_at: Date }>(
    `SELECT fire_at, attempt, outcome, transaction_id, result_code, ran_at FROM schedule_runs WHERE schedule_id = $1 ORDER BY fire_at DESC, attempt DESC LIMIT ${MAX_RUNS}`,
    [s.id],
  );
  return {
    id: s.id, status: s.status, endReason: s.end_reason, expression: s.expression, timeZone: s.time_zone, registrationId: s.registration_id,
    runs: runs.rows.reverse().map((r) => ({ fireAt: r.fire_at, attempt: r.attempt, outcome: r.outcome, transactionId: r.transaction_id, resultCode: r.result_code, ranAt: r.ran_at })),
  };
}

export interface ResolutionFact {
  readonly transactionId: string;
  readonly attempts: number;
  readonly lastAnswer: string | null;
  readonly resolvedAt: Date | null;
  readonly resolvedBy: string | null;
  readonly resolvedCode: string | null;
  readonly reason: string | null;
  readonly createdAt: Date;
}

/** How the gateway followed up the pending transactions among these (status queries, a resolution). */
export async function listPendingChecksOf(db: Queryable, transactionIds: readonly string[]): Promise<ResolutionFact[]> {
  const { rows } = await db.query<{ transaction_id: string; attempts: number; last_answer: string | null; resolved_at: Date | null; resolved_by: string | null; resolved_code: string | null; reason: string | null; created_at: Date }>(
    `SELECT transaction_id, attempts, last_answer, resolved_at, resolved_by, resolved_code, reason, created_at FROM pending_checks
      WHERE transaction_id = ANY($1::bpchar[])`,
    [[...transactionIds]],
  );
  return rows.map((r) => ({ transactionId: r.transaction_id, attempts: r.attempts, lastAnswer: r.last_answer, resolvedAt: r.resolved_at, resolvedBy: r.resolved_by, resolvedCode: r.resolved_code, reason: r.reason, createdAt: r.created_at }));
}

export interface RegistrationFact {
  readonly id: string;
  readonly status: string;
  readonly paymentBrand: string;
  /** Created by this payment (createRegistration=true), rather than paid with. */
  readonly createdByPayment: boolean;
  readonly createdAt: Date;
}

/** The registrations named by these transactions' responses, or created by one of them. */
export async function listRegistrationsOf(db: Queryable, registrationIds: readonly string[], transactionIds: readonly string[]): Promise<RegistrationFact[]> {
  if (registrationIds.length === 0) return [];
  const { rows } = await db.query<{ id: string; status: string; payment_brand: string; source_transaction_id: string | null; created_at: Date }>(
    'SELECT id, status, payment_brand, source_transaction_id, created_at FROM registrations WHERE id = ANY($1::bpchar[]) ORDER BY created_at, id',
    [[...registrationIds]],
  );
  const family = new Set(transactionIds);
  return rows.map((r) => ({ id: r.id, status: r.status, paymentBrand: r.payment_brand, createdByPayment: r.source_transaction_id !== null && family.has(r.source_transaction_id), createdAt: r.created_at }));
}
