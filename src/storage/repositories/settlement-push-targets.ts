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
