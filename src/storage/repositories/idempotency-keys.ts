import { isCommitUncertain } from '../errors.js';
import type { Queryable } from '../port.js';

export interface IdempotencyRecord {
  readonly requestHash: string;
  readonly state: 'in_flight' | 'done';
  readonly responseStatus: number | null;
  readonly responseBody: Record<string, unknown> | null;
  readonly expiresAt: Date;
  /** In flight: the request holding the key must renew this, or a retry may take the key over. */
  readonly leaseUntil: Date | null;
}

/** The key is this request's: a fresh claim, or (takenOver) the claim of an earlier request that died. */
export interface IdempotencyClaim {
  readonly claimed: true;
  readonly claimId: string;
  readonly takenOver: boolean;
}

export type ClaimResult = IdempotencyClaim | { readonly claimed: false; readonly holder: IdempotencyRecord };

/** One request's claim on a key: who, for which request, and until when. */
export interface KeyClaim {
  readonly entityId: string;
  readonly key: string;
  readonly requestHash: string;
  readonly now: Date;
  readonly expiresAt: Date;
  readonly leaseUntil: Date;
  readonly claimId: string;
}

/**
 * Claims a key for one request. An expired record is claimed afresh (a new claim id); an
 * in-flight record of the same request whose lease ran out is taken over with its claim id, so
 * that the transaction the earlier request may have written is found under it. Otherwise the
 * record that holds the key is answered.
 *
 * A claim whose answer was lost (the leader died or shut down after it was sent) is looked up
 * on the leader that holds the truth now (claimAfterLostAnswer) rather than failing the request.
 */
export async function claimIdempotencyKey(db: Queryable, claim: KeyClaim): Promise<ClaimResult> {
  try {
    return await claimOnce(db, claim);
  } catch (error) {
    if (!isCommitUncertain(error)) throw error;
    return claimAfterLostAnswer(db, claim);
  }
}

/**
 * The claim after its answer was lost. The record is this request's when it carries the claim's
 * id, or (a takeover, which keeps the earlier claim id) the times this claim set, in flight for
 * the same request. Otherwise the lost statement did not commit where it counts (after a failover
 * the new leader lacks only what never committed on two nodes), and the claim is made again. The
 * reads lock the row, so a replica refuses them and the storage waits for the leader.
 *
 * In a partition rather than a failover the lost statement may still be running on the server
 * when it is asked, and commit just after: the claim made again then meets it and is refused as
 * a request in flight. Asked once more, the record is this claim's, and the request goes on.
 */
async function claimAfterLostAnswer(db: Queryable, claim: KeyClaim): Promise<ClaimResult> {
  const found = await thisClaimsRecord(db, claim);
  if (found) return found;
  const again = await claimOnce(db, claim);
  if (again.claimed) return again;
  return (await thisClaimsRecord(db, claim)) ?? again;
}

/** The key's record read on the leader, as this claim's when it is (heldByThisClaim). */
async function thisClaimsRecord(db: Queryable, claim: KeyClaim): Promise<IdempotencyClaim | undefined> {
  const { rows } = await db.query<{ claim_id: string | null; request_hash: string; state: string; created_at: Date; lease_until: Date | null }>(
    'SELECT claim_id, request_hash, state, created_at, lease_until FROM idempotency_keys WHERE entity_id = $1 AND key = $2 FOR KEY SHARE',
    [claim.entityId, claim.key],
  );
  const row = rows[0];
  return row && heldByThisClaim(row, claim) ? { claimed: true, claimId: row.claim_id!, takenOver: row.claim_id !== claim.claimId } : undefined;
}

/** Whether a key's record is the one this claim wrote (pure: the record's fields against the claim's). */
export function heldByThisClaim(
  row: { claim_id: string | null; request_hash: string; state: string; created_at: Date; lease_until: Date | null },
  claim: Pick<KeyClaim, 'claimId' | 'requestHash' | 'now' | 'leaseUntil'>,
): boolean {
  if (row.claim_id === null || row.state !== 'in_flight' || row.request_hash !== claim.requestHash) return false;
  if (row.claim_id === claim.claimId) return true;
  return row.created_at.getTime() === claim.now.getTime() && row.lease_until?.getTime() === claim.leaseUntil.getTime();
}

async function claimOnce(db: Queryable, claim: KeyClaim): Promise<ClaimResult> {
  const claimed = await db.query<{ claim_id: string }>(
    `INSERT INTO idempotency_keys (entity_id, key, request_hash, state, created_at, expires_at, lease_until, claim_id)
     VALUES ($1, $2, $3, 'in_flight', $4, $5, $6, $7)
     ON CONFLICT (entity_id, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, state = 'in_flight', response_status = NULL, response_body = NULL,
           created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, lease_until = EXCLUDED.lease_until,
           claim_id = CASE WHEN idempotency_keys.expires_at <= $4 THEN EXCLUDED.claim_id ELSE COALESCE(idempotency_keys.claim_id, EXCLUDED.claim_id) END
       WHERE idempotency_keys.expires_at <= $4
          OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.lease_until <= $4 AND idempotency_keys.request_hash = EXCLUDED.request_hash)
     RETURNING claim_id`,
    [claim.entityId, claim.key, claim.requestHash, claim.now, claim.expiresAt, claim.leaseUntil, claim.claimId],
  );
  const row = claimed.rows[0];
  if (row) return { claimed: true, claimId: row.claim_id, takenOver: row.claim_id !== claim.claimId };
  const { rows } = await db.query<{ request_hash: string; state: 'in_flight' | 'done'; response_status: number | null; response_body: Record<string, unknown> | null; expires_at: Date; lease_until: Date | null }>(
    'SELECT request_hash, state, response_status, response_body, expires_at, lease_until FROM idempotency_keys WHERE entity_id = $1 AND key = $2',
    [claim.entityId, claim.key],
  );
  const holder = rows[0];
  // The holder expired and was deleted between the two statements: treat as a lost race.
  if (!holder) return { claimed: false, holder: { requestHash: '', state: 'in_flight', responseStatus: null, responseBody: null, expiresAt: claim.expiresAt, leaseUntil: claim.leaseUntil } };
  return {
    claimed: false,
    holder: { requestHash: holder.request_hash, state: holder.state, responseStatus: holder.response_status, responseBody: holder.response_body, expiresAt: holder.expires_at, leaseUntil: holder.lease_until },
  };
}

/** Extends the lease of a claim its request still works on; false when the claim is no longer held in flight. */
export async function renewIdempotencyLease(db: Queryable, renewal: { entityId: string; key: string; claimId: string; leaseUntil: Date }): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE idempotency_keys SET lease_until = $4 WHERE entity_id = $1 AND key = $2 AND claim_id = $3 AND state = 'in_flight'`,
    [renewal.entityId, renewal.key, renewal.claimId, renewal.leaseUntil],
    // The same lease set twice is the same lease: a lost answer is asked again, not uncertain.
    { idempotent: true },
  );
  return rowCount > 0;
}

export async function completeIdempotencyKey(
  db: Queryable,
  done: { entityId: string; key: string; claimId: string; status: number; body: Record<string, unknown> },
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET state = 'done', response_status = $4, response_body = $5, lease_until = NULL
      WHERE entity_id = $1 AND key = $2 AND claim_id = $3`,
    [done.entityId, done.key, done.claimId, done.status, JSON.stringify(done.body)],
    { idempotent: true },
  );
}

export async function deleteExpiredIdempotencyKeys(db: Queryable, now: Date): Promise<number> {
  const result = await db.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
  return result.rowCount;
}
