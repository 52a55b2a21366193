import type { CheckoutState } from '../../domain/checkouts/attempt.js';
import { createBatchedLookup, LOOKUP_BATCH, perStorage } from '../batched-lookup.js';
import { createGroupCommit, type ItemResult } from '../group-commit.js';
import type { Queryable, Storage } from '../port.js';

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

/** findCheckout, batched with the look-ups of concurrent widget requests (batched-lookup.ts). */
export const lookUpCheckout = perStorage((db: Queryable) => createBatchedLookup<string, StoredCheckout>({
  ...LOOKUP_BATCH,
  read: async (ids) => {
    const { rows } = await db.query<CheckoutRow>('SELECT * FROM checkouts WHERE id = ANY($1::text[])', [ids]);
    return new Map(rows.map((row) => [row.id, toCheckout(row)]));
  },
}));

interface AttemptClaim {
  readonly id: string;
  readonly attempt_id: string;
  readonly now: Date;
  readonly seen_state: string;
  readonly seen_attempt_id: string | null;
  readonly shopper_result_url: string | null;
  readonly parameters_version: number;
}

/**
 * The claims of concurrent widget posts in one conditional UPDATE. Two claims of one checkout
 * in the same group update its row once: the attempt id it now holds names the one that won.
 */
async function claimAttemptGroup(db: Queryable, claims: readonly AttemptClaim[]): Promise<ItemResult<boolean>[]> {
  const { rows } = await db.query<{ id: string; attempt_id: string }>(
    `UPDATE checkouts c SET state = 'attempting', attempt_id = v.attempt_id, attempt_started_at = v.now, attempts = c.attempts + 1, updated_at = v.now,
            shopper_result_url = v.shopper_result_url, status_fetched_at = NULL,
            callback_state = CASE WHEN c.callback_state = 'not-needed' THEN 'waiting' ELSE c.callback_state END
       FROM json_to_recordset($1::json) AS v(id text, attempt_id bpchar, now timestamptz, seen_state text, seen_attempt_id bpchar,
            shopper_result_url text, parameters_version int)
      WHERE c.id = v.id AND c.state = v.seen_state AND c.attempt_id IS NOT DISTINCT FROM v.seen_attempt_id
        AND c.parameters_version = v.parameters_version AND c.expires_at > v.now
      RETURNING c.id, c.attempt_id`,
    [JSON.stringify(claims)],
  );
  const won = new Set(rows.map((row) => `${row.id}/${row.attempt_id}`));
  return claims.map((claim) => ({ ok: true, value: won.has(`${claim.id}/${claim.attempt_id}`) }));
}

interface AttemptState {
  readonly id: string;
  readonly attempt_id: string;
  readonly state: CheckoutState;
  readonly now: Date;
}

/** How concurrent attempts ended, in one UPDATE; each row only while its attempt still holds it. */
async function recordAttemptStateGroup(db: Queryable, states: readonly AttemptState[]): Promise<void> {
  await db.query(
    `UPDATE checkouts c SET state = v.state, updated_at = v.now
       FROM json_to_recordset($1::json) AS v(id text, attempt_id bpchar, state text, now timestamptz)
      WHERE c.id = v.id AND c.attempt_id = v.attempt_id AND c.state <> 'completed'`,
    [JSON.stringify(states)],
  );
}

/** One group of each on its way at a time, on the general pool, as the payments' groups (payment-writes.ts). */
const attemptWrites = perStorage((storage: Storage) => {
  const common = { storage, transactional: false, maxGroupSize: LOOKUP_BATCH.maxBatch, maxConcurrentGroups: 1 } as const;
  const claims = createGroupCommit<AttemptClaim, boolean>({ ...common, name: 'claim-attempt', write: claimAttemptGroup });
  const states = createGroupCommit<AttemptState>({ ...common, name: 'attempt-state', write: recordAttemptStateGroup });
  return (write: { readonly claim: AttemptClaim } | { readonly state: AttemptState }) => ('claim' in write ? claims.submit(write.claim) : states.submit(write.state).then(() => true));
});

/**
 * Takes the checkout for a new attempt if nobody changed it since `seen` was read (same state,
 * same latest attempt, same version of the parameters the attempt pays with): of two concurrent
 * widget posts exactly one wins, and of a widget post and the merchant's update exactly one wins.
 * The merchant has not seen this attempt's result yet, so its 29-minute callback is wanted again.
 * Written with the claims of concurrent posts (group commit).
 */
export async function claimAttempt(storage: Storage, seen: StoredCheckout, attempt: { readonly id: string; readonly shopperResultUrl: string | undefined }, now: Date): Promise<boolean> {
  const claim: AttemptClaim = {
    id: seen.id, attempt_id: attempt.id, now, seen_state: seen.state, seen_attempt_id: seen.attemptId,
    shopper_result_url: attempt.shopperResultUrl ?? null, parameters_version: seen.parametersVersion,
  };
  return (await attemptWrites(storage, { claim })) === true;
}

/** Records how an attempt ended, unless a newer attempt took the checkout meanwhile (with those of concurrent attempts). */
export async function recordAttemptState(storage: Storage, checkoutId: string, attemptId: string, state: CheckoutState, now: Date): Promise<void> {
  await attemptWrites(storage, { state: { id: checkoutId, attempt_id: attemptId, state, now } });
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
