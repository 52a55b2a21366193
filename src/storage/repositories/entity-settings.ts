import type { UnknownParameterMode } from '../../catalogue/types.js';
import type { Queryable } from '../port.js';

/** The entity's unknown-parameter setting; undefined when no entity has that id. */
export async function findUnknownParameterMode(db: Queryable, entityId: string): Promise<UnknownParameterMode | undefined> {
  const { rows } = await db.query<{ unknown_parameters: UnknownParameterMode }>('SELECT unknown_parameters FROM entities WHERE id = $1', [entityId]);
  return rows[0]?.unknown_parameters;
}

/** Returns false when no entity has that id. */
export async function updateUnknownParameterMode(db: Queryable, entityId: string, mode: UnknownParameterMode): Promise<boolean> {
  const result = await db.query('UPDATE entities SET unknown_parameters = $2 WHERE id = $1', [entityId, mode]);
  return result.rowCount > 0;
}

/** The entity's 3-D Secure requirement as stored (requirement.ts parses it); undefined when no entity has that id. */
export async function findThreeDSecureSetting(db: Queryable, entityId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ three_d_secure: string }>('SELECT three_d_secure FROM entities WHERE id = $1', [entityId]);
  return rows[0]?.three_d_secure;
}

/** Returns false when no entity has that id. */
export async function updateThreeDSecureSetting(db: Queryable, entityId: string, setting: string): Promise<boolean> {
  const result = await db.query('UPDATE entities SET three_d_secure = $2 WHERE id = $1', [entityId, setting]);
  return result.rowCount > 0;
}
