import type { Queryable } from '../port.js';

export async function insertSftpKey(db: Queryable, key: { id: string; merchantId: string; publicKey: string; createdAt: Date }): Promise<void> {
  await db.query('INSERT INTO sftp_keys (id, merchant_id, public_key, created_at) VALUES ($1, $2, $3, $4)', [key.id, key.merchantId, key.publicKey, key.createdAt]);
}

/** The OpenSSH public keys that may fetch the merchant's files. */
export async function publicKeysOf(db: Queryable, merchantId: string): Promise<string[]> {
  const { rows } = await db.query<{ public_key: string }>('SELECT public_key FROM sftp_keys WHERE merchant_id = $1 ORDER BY created_at', [merchantId]);
  return rows.map((r) => r.public_key);
}
