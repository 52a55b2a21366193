import type { DataKeyPurpose, DataKeyStore, StoredDataKey } from '../../domain/vault/index.js';
import type { Queryable } from '../port.js';

interface VaultKeyRow {
  id: string;
  purpose: DataKeyPurpose;
  period: string;
  master_key_id: string;
  wrapped_key: Uint8Array;
  created_at: Date;
}

function toStored(row: VaultKeyRow): StoredDataKey {
  return {
    id: row.id,
    purpose: row.purpose,
    period: row.period,
    masterKeyId: row.master_key_id,
    // pg returns a Buffer, PGlite a Uint8Array.
    wrappedKey: Buffer.from(row.wrapped_key),
    createdAt: row.created_at,
  };
}

const COLUMNS = 'id, purpose, period, master_key_id, wrapped_key, created_at';

/** The vault's data keys in the vault_keys table. */
export function createDataKeyStore(db: Queryable): DataKeyStore {
  return {
    async findByPeriod(purpose, period) {
      const { rows } = await db.query<VaultKeyRow>(`SELECT ${COLUMNS} FROM vault_keys WHERE purpose = $1 AND period = $2`, [purpose, period]);
      return rows[0] ? toStored(rows[0]) : undefined;
    },
    async findById(id) {
      const { rows } = await db.query<VaultKeyRow>(`SELECT ${COLUMNS} FROM vault_keys WHERE id = $1`, [id]);
      return rows[0] ? toStored(rows[0]) : undefined;
    },
    async insertIfAbsent(key) {
      await db.query(
        `INSERT INTO vault_keys (id, purpose, period, master_key_id, wrapped_key, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (purpose, period) DO NOTHING`,
        [key.id, key.purpose, key.period, key.masterKeyId, key.wrappedKey, key.createdAt],
      );
    },
    async listNotWrappedBy(masterKeyId) {
      const { rows } = await db.query<VaultKeyRow>(`SELECT ${COLUMNS} FROM vault_keys WHERE master_key_id <> $1 ORDER BY created_at, id`, [masterKeyId]);
      return rows.map(toStored);
    },
    async rewrap(id, fromMasterKeyId, to, at) {
      const { rowCount } = await db.query(
        'UPDATE vault_keys SET master_key_id = $3, wrapped_key = $4, rewrapped_at = $5 WHERE id = $1 AND master_key_id = $2',
        [id, fromMasterKeyId, to.masterKeyId, to.wrappedKey, at],
      );
      return rowCount === 1;
    },
    async countByMasterKey() {
      const { rows } = await db.query<{ master_key_id: string; purpose: DataKeyPurpose; count: bigint | number }>(
        'SELECT master_key_id, purpose, count(*) AS count FROM vault_keys GROUP BY master_key_id, purpose ORDER BY master_key_id, purpose',
      );
      return rows.map((row) => ({ masterKeyId: row.master_key_id, purpose: row.purpose, count: Number(row.count) }));
    },
  };
}
