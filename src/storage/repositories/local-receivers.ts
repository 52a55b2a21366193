import type { Queryable } from '../port.js';

/** An entity's local webhook receivers (migration 042); empty when none or no such entity. */
export async function findLocalReceivers(db: Queryable, entityId: string): Promise<readonly string[]> {
  const { rows } = await db.query<{ receivers: string }>('SELECT local_webhook_receivers AS receivers FROM entities WHERE id = $1', [entityId]);
  const text = rows[0]?.receivers ?? '';
  return text === '' ? [] : text.split(',');
}

/** Replaces them; false when no entity has the id. */
export async function updateLocalReceivers(db: Queryable, entityId: string, receivers: readonly string[]): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>('UPDATE entities SET local_webhook_receivers = $2 WHERE id = $1 RETURNING id', [entityId, receivers.join(',')]);
  return rows.length > 0;
}
