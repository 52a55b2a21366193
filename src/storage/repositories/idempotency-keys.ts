import type { Queryable } from '../port.js';

export interface IdempotencyRecord {
  readonly requestHash: string;
  readonly state: 'in_flight' | 'done';
  readonly responseStatus: number | null;
  readonly responseBody: Record<string, unknown> | null;
  readonly expiresAt: Date;
}

/**
 * Claims a key for one request. Returns undefined when the claim succeeded, else the record that
 * holds the key. An expired record is taken over in the same statement.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  claim: { entityId: string; key: string; requestHash: string; now: Date; expiresAt: Date },
): Promise<IdempotencyRecord | undefined> {
  const inserted = await db.query(
    `INSERT INTO idempotency_keys (entity_id, key, request_hash, state, created_at, expires_at)
     VALUES ($1, $2, $3, 'in_flight', $4, $5)
     ON CONFLICT (entity_id, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, state = 'in_flight', response_status = NULL,
           response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
       WHERE idempotency_keys.expires_at <= $4
     RETURNING 1`,
    [claim.entityId, claim.key, claim.requestHash, claim.now, claim.expiresAt],
  );
  if (inserted.rows.length > 0) return undefined;
  const { rows } = await db.query<{ request_hash: string; state: 'in_flight' | 'done'; response_status: number | null; response_body: Record<string, unknown> | null; expires_at: Date }>(
    'SELECT request_hash, state, response_status, response_body, expires_at FROM idempotency_keys WHERE entity_id = $1 AND key = $2',
    [claim.entityId, claim.key],
  );
  const row = rows[0];
  // The holder expired and was deleted between the two statements: treat as a lost race.
  if (!row) return { requestHash: '', state: 'in_flight', responseStatus: null, responseBody: null, expiresAt: claim.expiresAt };
  return { requestHash: row.request_hash, state: row.state, responseStatus: row.response_status, responseBody: row.response_body, expiresAt: row.expires_at };
}

export async function completeIdempotencyKey(
  db: Queryable,
  done: { entityId: string; key: string; status: number; body: Record<string, unknown> },
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET state = 'done', response_status = $3, response_body = $4 WHERE entity_id = $1 AND key = $2`,
    [done.entityId, done.key, done.status, JSON.stringify(done.body)],
  );
}

export async function deleteExpiredIdempotencyKeys(db: Queryable, now: Date): Promise<number> {
  const result = await db.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
  return result.rowCount;
}
