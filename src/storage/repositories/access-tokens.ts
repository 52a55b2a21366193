import type { Queryable } from '../port.js';
import type { EntityKind } from './entities.js';

export interface AccessTokenRecord {
  readonly id: string;
  readonly entityId: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

/** What authentication needs to know about the bearer of a token. */
export interface TokenPrincipal {
  readonly tokenId: string;
  readonly entityId: string;
  readonly entityKind: EntityKind;
  /** Whether the token's entity accepts the credential as authentication.* fields. */
  readonly legacyAuth: boolean;
}

export async function insertAccessToken(db: Queryable, token: AccessTokenRecord & { hash: string }): Promise<void> {
  await db.query('INSERT INTO access_tokens (id, entity_id, token_hash, created_at) VALUES ($1, $2, $3, $4)', [
    token.id,
    token.entityId,
    token.hash,
    token.createdAt,
  ]);
}

export async function findPrincipalByTokenHash(db: Queryable, hash: string): Promise<TokenPrincipal | undefined> {
  const { rows } = await db.query<{ id: string; entity_id: string; kind: EntityKind; legacy_auth: boolean }>(
    `SELECT t.id, t.entity_id, e.kind, e.legacy_auth
       FROM access_tokens t JOIN entities e ON e.id = t.entity_id
      WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
    [hash],
  );
  const row = rows[0];
  return row ? { tokenId: row.id, entityId: row.entity_id, entityKind: row.kind, legacyAuth: row.legacy_auth } : undefined;
}

/** Returns false when no active token has that id. */
export async function revokeAccessToken(db: Queryable, tokenId: string, at: Date): Promise<boolean> {
  const result = await db.query('UPDATE access_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [tokenId, at]);
  return result.rowCount > 0;
}

export async function listAccessTokens(db: Queryable, entityId: string): Promise<AccessTokenRecord[]> {
  const { rows } = await db.query<{ id: string; entity_id: string; created_at: Date; revoked_at: Date | null }>(
    'SELECT id, entity_id, created_at, revoked_at FROM access_tokens WHERE entity_id = $1 ORDER BY created_at, id',
    [entityId],
  );
  return rows.map((r) => ({ id: r.id, entityId: r.entity_id, createdAt: r.created_at, revokedAt: r.revoked_at }));
}

/** True when `entityId` is the merchant itself or one of its channels. */
export async function isEntityWithinMerchant(db: Queryable, merchantId: string, entityId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM entities WHERE id = $1 AND merchant_id = $2', [entityId, merchantId]);
  return rows.length > 0;
}
