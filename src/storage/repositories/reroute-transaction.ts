import type { Queryable } from '../port.js';

/**
 * Moves a still-pending new payment to its fallback route before the fallback's connector is
 * asked, so that a process dying in between leaves the row pointing where the money may be.
 * Answers false when the row is no longer pending (nothing is changed then).
 */
export async function reroutePendingTransaction(db: Queryable, change: { readonly id: string; readonly connectorId: string; readonly routeId: string | null }): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE transactions SET connector_id = $2, route_id = $3 WHERE id = $1 AND status = 'pending' RETURNING id`,
    [change.id, change.connectorId, change.routeId],
  );
  return rows.length === 1;
}
