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

/**
 * Claims a key for one request. An expired record is claimed afresh (a new claim id); an
 * in-flight record of the same request whose lease ran out is taken over with its claim id, so
 * that the transaction the earlier request may have written is found under it. Otherwise the
 * record that holds the key is answered.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  claim: { entityId: string; key: string; requestHash: string; now: Date; expiresAt: Date; leaseUntil: Date; claimId: string },
): Promise<ClaimResult> {
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
  );
}

export async function deleteExpiredIdempotencyKeys(db: Queryable, now: Date): Promise<number> {
  const result = await db.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
  return result.rowCount;
}
