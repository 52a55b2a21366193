import type { CheckoutState } from '../../domain/checkouts/attempt.js';
import type { Queryable } from '../port.js';

export type CheckoutPurpose = 'payment' | 'registration';

/** A checkout as migration 020 stores it. */
export interface StoredCheckout {
  readonly id: string;
  readonly entityId: string;
  readonly purpose: CheckoutPurpose;
  /** The merchant's accepted request parameters, as posted (strings). */
  readonly parameters: Readonly<Record<string, string>>;
  /** Bumped by every update of the parameters (migration 028): a claim takes only the version its attempt read. */
  readonly parametersVersion: number;
  readonly state: CheckoutState;
  readonly attemptId: string | null;
  readonly attemptStartedAt: Date | null;
  readonly attempts: number;
  readonly shopperResultUrl: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly expiresAt: Date;
  readonly statusFetchedAt: Date | null;
  readonly callbackDueAt: Date;
}

interface CheckoutRow {
  id: string;
  entity_id: string;
  purpose: CheckoutPurpose;
  parameters: Record<string, string>;
  parameters_version: number;
  state: CheckoutState;
  attempt_id: string | null;
  attempt_started_at: Date | null;
  attempts: number;
  shopper_result_url: string | null;
  created_at: Date;
  updated_at: Date;
  expires_at: Date;
  status_fetched_at: Date | null;
  callback_due_at: Date;
}

function toCheckout(row: CheckoutRow): StoredCheckout {
  return {
    id: row.id,
    entityId: row.entity_id,
    purpose: row.purpose,
    parameters: row.parameters,
    parametersVersion: row.parameters_version,
    state: row.state,
    attemptId: row.attempt_id,
    attemptStartedAt: row.attempt_started_at,
    attempts: row.attempts,
    shopperResultUrl: row.shopper_result_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    statusFetchedAt: row.status_fetched_at,
    callbackDueAt: row.callback_due_at,
  };
}

export type NewCheckout = Pick<StoredCheckout, 'id' | 'entityId' | 'purpose' | 'parameters' | 'createdAt' | 'expiresAt' | 'callbackDueAt'>;

export async function insertCheckout(db: Queryable, checkout: NewCheckout): Promise<void> {
  await db.query(
    `INSERT INTO checkouts (id, entity_id, purpose, parameters, state, created_at, updated_at, expires_at, callback_due_at)
     VALUES ($1, $2, $3, $4, 'open', $5, $5, $6, $7)`,
    [checkout.id, checkout.entityId, checkout.purpose, JSON.stringify(checkout.parameters), checkout.createdAt, checkout.expiresAt, checkout.callbackDueAt],
  );
}

/** Any entity's checkout by id: the widget's calls carry the id as their only credential. */
export async function findCheckout(db: Queryable, id: string): Promise<StoredCheckout | undefined> {
  const { rows } = await db.query<CheckoutRow>('SELECT * FROM checkouts WHERE id = $1', [id]);
  return rows[0] ? toCheckout(rows[0]) : undefined;
}

/** A merchant's own checkout: another entity's is not found. */
export async function findEntityCheckout(db: Queryable, entityId: string, id: string): Promise<StoredCheckout | undefined> {
  const { rows } = await db.query<CheckoutRow>('SELECT * FROM checkouts WHERE id = $1 AND entity_id = $2', [id, entityId]);
  return rows[0] ? toCheckout(rows[0]) : undefined;
}

/**
 * Takes the checkout for a new attempt if nobody changed it since `seen` was read (same state,
 * same latest attempt, same version of the parameters the attempt pays with): of two concurrent
 * widget posts exactly one wins, and of a widget post and the merchant's update exactly one wins.
 * The merchant has not seen this attempt's result yet, so its 29-minute callback is wanted again.
 */
export async function claimAttempt(db: Queryable, seen: StoredCheckout, attempt: { readonly id: string; readonly shopperResultUrl: string | undefined }, now: Date): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE checkouts SET state = 'attempting', attempt_id = $2, attempt_started_at = $3, attempts = attempts + 1, updated_at = $3,
            shopper_result_url = $6, status_fetched_at = NULL,
            callback_state = CASE WHEN callback_state = 'not-needed' THEN 'waiting' ELSE callback_state END
      WHERE id = $1 AND state = $4 AND attempt_id IS NOT DISTINCT FROM $5 AND parameters_version = $7 AND expires_at > $3
      RETURNING id`,
    [seen.id, attempt.id, now, seen.state, seen.attemptId, attempt.shopperResultUrl ?? null, seen.parametersVersion],
  );
  return rows.length === 1;
}

/** Records how an attempt ended, unless a newer attempt took the checkout meanwhile. */
export async function recordAttemptState(db: Queryable, checkoutId: string, attemptId: string, state: CheckoutState, now: Date): Promise<void> {
  await db.query(`UPDATE checkouts SET state = $3, updated_at = $4 WHERE id = $1 AND attempt_id = $2 AND state <> 'completed'`, [checkoutId, attemptId, state, now]);
}

/**
 * Replaces the merchant's parameters of a checkout nobody is paying (POST /v1/checkouts/{id}), if
 * they are still the version `parameters` was merged from, and bumps the version: a widget attempt
 * that read the old version can no longer claim the checkout, and of two updates neither loses
 * the other's fields.
 */
export async function updateCheckoutParameters(db: Queryable, seen: StoredCheckout, parameters: Readonly<Record<string, string>>, now: Date): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE checkouts SET parameters = $2, parameters_version = parameters_version + 1, updated_at = $3
      WHERE id = $1 AND state = 'open' AND attempt_id IS NOT DISTINCT FROM $4 AND parameters_version = $5 AND expires_at > $3 RETURNING id`,
    [seen.id, JSON.stringify(parameters), now, seen.attemptId, seen.parametersVersion],
  );
  return rows.length === 1;
}

/** The merchant's server read the latest attempt's result: no shopper result callback is needed for it. */
export async function markStatusFetched(db: Queryable, id: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE checkouts SET status_fetched_at = COALESCE(status_fetched_at, $2),
            callback_state = CASE WHEN callback_state = 'waiting' THEN 'not-needed' ELSE callback_state END
      WHERE id = $1`,
    [id, now],
  );
}

/**
 * Takes up to `limit` checkouts whose callback is due, each by exactly one caller (SKIP LOCKED),
 * and marks them in the caller's transaction: 'queued' where `needed` says so, else 'not-needed'.
 */
export async function claimDueCallbacks(tx: Queryable, now: Date, limit: number): Promise<StoredCheckout[]> {
  const { rows } = await tx.query<CheckoutRow>(
    `SELECT * FROM checkouts WHERE callback_state = 'waiting' AND callback_due_at <= $1
      ORDER BY callback_due_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [now, limit],
  );
  return rows.map(toCheckout);
}

export async function setCallbackStates(tx: Queryable, queued: readonly string[], notNeeded: readonly string[]): Promise<void> {
  if (queued.length > 0) await tx.query(`UPDATE checkouts SET callback_state = 'queued' WHERE id = ANY($1::text[])`, [queued]);
  if (notNeeded.length > 0) await tx.query(`UPDATE checkouts SET callback_state = 'not-needed' WHERE id = ANY($1::text[])`, [notNeeded]);
}
