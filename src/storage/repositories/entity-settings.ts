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

/** Whether the entity's answers show the connector's details (migration 038); undefined for no entity. */
export async function findShowConnectorDetails(db: Queryable, entityId: string): Promise<boolean | undefined> {
  const { rows } = await db.query<{ show_connector_details: boolean }>('SELECT show_connector_details FROM entities WHERE id = $1', [entityId]);
  return rows[0]?.show_connector_details;
}

/** Returns false when no entity has that id. */
export async function updateShowConnectorDetails(db: Queryable, entityId: string, shown: boolean): Promise<boolean> {
  const result = await db.query('UPDATE entities SET show_connector_details = $2 WHERE id = $1', [entityId, shown]);
  return result.rowCount > 0;
}

/** The entity's own payout bank account, else its merchant's (a channel inherits); null when neither has one. */
export async function findPayoutBankAccount(db: Queryable, entityId: string): Promise<Record<string, string> | null> {
  const { rows } = await db.query<{ account: Record<string, string> | null }>(
    `SELECT COALESCE(e.payout_bank_account, m.payout_bank_account) AS account
       FROM entities e LEFT JOIN entities m ON m.id = e.merchant_id
      WHERE e.id = $1`,
    [entityId],
  );
  return rows[0]?.account ?? null;
}

/** Stores (or, with null, removes) the entity's payout bank account; false when no entity has that id. */
export async function updatePayoutBankAccount(db: Queryable, entityId: string, account: Readonly<Record<string, string>> | null): Promise<boolean> {
  const result = await db.query('UPDATE entities SET payout_bank_account = $2::jsonb WHERE id = $1', [entityId, account === null ? null : JSON.stringify(account)]);
  return result.rowCount > 0;
}

/** The entity's own throttling limit (migration 057): null for the gateway's, undefined when no entity has that id. */
export async function findThrottleMaxRequests(db: Queryable, entityId: string): Promise<number | null | undefined> {
  const { rows } = await db.query<{ throttle_max_requests: number | null }>('SELECT throttle_max_requests FROM entities WHERE id = $1', [entityId]);
  const row = rows[0];
  return row === undefined ? undefined : row.throttle_max_requests === null ? null : Number(row.throttle_max_requests);
}

/** Sets (or, with null, removes) the entity's own throttling limit; false when no entity has that id. */
export async function updateThrottleMaxRequests(db: Queryable, entityId: string, maxRequests: number | null): Promise<boolean> {
  const result = await db.query('UPDATE entities SET throttle_max_requests = $2 WHERE id = $1', [entityId, maxRequests]);
  return result.rowCount > 0;
}
