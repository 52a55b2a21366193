import type { Queryable } from '../port.js';

export interface StoredSftpKey {
  readonly id: string;
  readonly publicKey: string;
  readonly createdAt: Date;
}

export async function insertSftpKey(db: Queryable, key: { id: string; merchantId: string; publicKey: string; createdAt: Date }): Promise<void> {
  await db.query('INSERT INTO sftp_keys (id, merchant_id, public_key, created_at) VALUES ($1, $2, $3, $4)', [key.id, key.merchantId, key.publicKey, key.createdAt]);
}

/** The OpenSSH public keys that may fetch the merchant's files. */
export async function publicKeysOf(db: Queryable, merchantId: string): Promise<string[]> {
  const { rows } = await db.query<{ public_key: string }>('SELECT public_key FROM sftp_keys WHERE merchant_id = $1 ORDER BY created_at', [merchantId]);
  return rows.map((r) => r.public_key);
}

/** The merchant's keys with their ids and when each was added, oldest first. */
export async function sftpKeysOf(db: Queryable, merchantId: string): Promise<StoredSftpKey[]> {
  const { rows } = await db.query<{ id: string; public_key: string; created_at: Date | string }>('SELECT id, public_key, created_at FROM sftp_keys WHERE merchant_id = $1 ORDER BY created_at, id', [merchantId]);
  return rows.map((r) => ({ id: r.id.trim(), publicKey: r.public_key, createdAt: new Date(r.created_at) }));
}

/** Deletes one of the merchant's keys (the merchant in the condition: never another's); answers the key removed, if any. */
export async function deleteSftpKey(db: Queryable, merchantId: string, keyId: string): Promise<StoredSftpKey | undefined> {
  const { rows } = await db.query<{ id: string; public_key: string; created_at: Date | string }>('DELETE FROM sftp_keys WHERE merchant_id = $1 AND id = $2 RETURNING id, public_key, created_at', [merchantId, keyId]);
  const row = rows[0];
  return row ? { id: row.id.trim(), publicKey: row.public_key, createdAt: new Date(row.created_at) } : undefined;
}
