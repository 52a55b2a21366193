import type { Queryable } from '../port.js';

/**
 * Every column pair the vault seals into: the data key's id and the sealed bytes. A table that
 * starts sealing values belongs here (test/integration/vault-sealed-counts.test.ts compares this
 * list with the schema's columns named *data_key_id).
 */
export const SEALED_COLUMNS: readonly { readonly table: string; readonly dataKeyId: string }[] = [
  { table: 'registrations', dataKeyId: 'data_key_id' },
  { table: 'connector_routes', dataKeyId: 'data_key_id' },
  { table: 'shopper_redirects', dataKeyId: 'data_key_id' },
  { table: 'settlement_push_targets', dataKeyId: 'data_key_id' },
  { table: 'console_users', dataKeyId: 'totp_data_key_id' },
];

/** One data key and how many values are sealed under it now (a value cleared, such as a deregistered card's, no longer counts). */
export interface DataKeyUse {
  readonly dataKeyId: string;
  readonly purpose: string;
  readonly period: string;
  readonly masterKeyId: string;
  readonly sealedValues: number;
}

// The names are the constants above, never input: only the key ids are values.
const SEALED_KEY_IDS = SEALED_COLUMNS.map((c) => `SELECT ${c.dataKeyId} AS id FROM ${c.table} WHERE ${c.dataKeyId} IS NOT NULL`).join(' UNION ALL ');

/** The newest `limit` data keys (a data key per day), each with its count of sealed values. */
export async function countSealedValuesByDataKey(db: Queryable, limit: number): Promise<DataKeyUse[]> {
  const { rows } = await db.query<{ id: string; purpose: string; period: string; master_key_id: string; sealed: number | bigint }>(
    `SELECT k.id, k.purpose, k.period, k.master_key_id, COALESCE(c.sealed, 0) AS sealed
       FROM vault_keys k
       LEFT JOIN (SELECT id, count(*) AS sealed FROM (${SEALED_KEY_IDS}) s GROUP BY id) c ON c.id = k.id
      ORDER BY k.created_at DESC, k.id LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ dataKeyId: r.id.trim(), purpose: r.purpose, period: r.period, masterKeyId: r.master_key_id, sealedValues: Number(r.sealed) }));
}
