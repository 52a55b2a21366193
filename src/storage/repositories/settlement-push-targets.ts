import type { SealedSecret } from '../../domain/vault/index.js';
import type { Queryable } from '../port.js';

export interface StoredPushTarget {
  readonly merchantId: string;
  readonly url: string;
  readonly sealedPassword: SealedSecret;
}

export async function upsertPushTarget(db: Queryable, target: StoredPushTarget, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO settlement_push_targets (merchant_id, url, data_key_id, sealed_password, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (merchant_id) DO UPDATE SET url = EXCLUDED.url, data_key_id = EXCLUDED.data_key_id, sealed_password = EXCLUDED.sealed_password, updated_at = EXCLUDED.updated_at`,
    [target.merchantId, target.url, target.sealedPassword.dataKeyId, target.sealedPassword.sealed, at],
  );
}

export async function findPushTarget(db: Queryable, merchantId: string): Promise<StoredPushTarget | undefined> {
  const { rows } = await db.query<{ merchant_id: string; url: string; data_key_id: string; sealed_password: Uint8Array }>(
    'SELECT merchant_id, url, data_key_id, sealed_password FROM settlement_push_targets WHERE merchant_id = $1',
    [merchantId],
  );
  const row = rows[0];
  return row ? { merchantId: row.merchant_id, url: row.url, sealedPassword: { dataKeyId: row.data_key_id, sealed: Buffer.from(row.sealed_password) } } : undefined;
}

/** The target as a page shows it: the URL (no secret in it) and when it was last set; never the sealed password. */
export async function findPushTargetSummary(db: Queryable, merchantId: string): Promise<{ url: string; updatedAt: Date } | undefined> {
  const { rows } = await db.query<{ url: string; updated_at: Date | string }>('SELECT url, updated_at FROM settlement_push_targets WHERE merchant_id = $1', [merchantId]);
  const row = rows[0];
  return row ? { url: row.url, updatedAt: new Date(row.updated_at) } : undefined;
}

/** Answers the URL of the target removed, if the merchant had one. */
export async function deletePushTarget(db: Queryable, merchantId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ url: string }>('DELETE FROM settlement_push_targets WHERE merchant_id = $1 RETURNING url', [merchantId]);
  return rows[0]?.url;
}
