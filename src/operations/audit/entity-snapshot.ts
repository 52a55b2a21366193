import type { Queryable } from '../../storage/port.js';
import type { AuditedChange } from './audited.js';

/**
 * An entity's settings as one object (every column but its id and creation time): the before and
 * after of a settings change, whichever setting it was, so a new column is audited without a
 * change here.
 */
export async function entitySnapshot(db: Queryable, entityId: string): Promise<unknown> {
  const result = await db.query<{ snapshot: unknown }>("SELECT to_jsonb(e) - 'id' - 'created_at' AS snapshot FROM entities e WHERE id = $1", [entityId]);
  const snapshot = result.rows[0]?.snapshot;
  return typeof snapshot === 'string' ? JSON.parse(snapshot) : snapshot ?? null;
}

/** A change of one entity's settings: target the entity, before and after its whole settings row. */
export function entitySettingChange<T>(action: string, entityId: string): AuditedChange<T> {
  return {
    action,
    target: () => ({ kind: 'entity', id: entityId }),
    entityId: () => entityId,
    before: (db) => entitySnapshot(db, entityId),
    after: (_result, db) => entitySnapshot(db, entityId),
  };
}
