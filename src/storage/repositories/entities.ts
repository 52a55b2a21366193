import type { Queryable } from '../port.js';

/** psp and division group merchants for operators (reconciliation files' PspId, DivisionId). */
export type EntityKind = 'psp' | 'division' | 'merchant' | 'channel';

export interface EntityRecord {
  readonly id: string;
  readonly kind: EntityKind;
  readonly name: string;
  readonly merchantId: string | null;
  /** A merchant's division or PSP, a division's PSP (migration 022). */
  readonly parentId?: string | null;
  readonly createdAt: Date;
  /** Whether the entity accepts OPPWA's authentication.* fields (see migration 016). */
  readonly legacyAuth?: boolean;
}

interface EntityRow {
  id: string;
  kind: EntityKind;
  name: string;
  merchant_id: string | null;
  parent_id: string | null;
  created_at: Date;
  legacy_auth: boolean;
}

function toRecord(row: EntityRow): EntityRecord {
  return { id: row.id, kind: row.kind, name: row.name, merchantId: row.merchant_id, parentId: row.parent_id ?? null, createdAt: row.created_at, legacyAuth: row.legacy_auth };
}

export async function insertEntity(db: Queryable, entity: EntityRecord): Promise<void> {
  await db.query('INSERT INTO entities (id, kind, name, merchant_id, parent_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
    entity.id,
    entity.kind,
    entity.name,
    entity.merchantId,
    entity.parentId ?? null,
    entity.createdAt,
  ]);
}

export async function findEntity(db: Queryable, id: string): Promise<EntityRecord | undefined> {
  const { rows } = await db.query<EntityRow>('SELECT * FROM entities WHERE id = $1', [id]);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

export async function listEntities(db: Queryable): Promise<EntityRecord[]> {
  const { rows } = await db.query<EntityRow>('SELECT * FROM entities ORDER BY created_at, id');
  return rows.map(toRecord);
}

export async function countEntities(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: bigint }>('SELECT count(*)::int8 AS n FROM entities');
  return Number(rows[0]?.n ?? 0n);
}

/** Whether the entity accepts the authentication.* fields; false for an unknown entity. */
export async function isLegacyAuthEnabled(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query<{ legacy_auth: boolean }>('SELECT legacy_auth FROM entities WHERE id = $1', [id]);
  return rows[0]?.legacy_auth === true;
}

/** Returns false when no entity has that id. */
export async function setLegacyAuth(db: Queryable, id: string, enabled: boolean): Promise<boolean> {
  const result = await db.query('UPDATE entities SET legacy_auth = $2 WHERE id = $1', [id, enabled]);
  return result.rowCount > 0;
}
