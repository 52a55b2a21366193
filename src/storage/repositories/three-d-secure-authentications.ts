import type { Queryable } from '../port.js';

export type AuthenticationStatus = 'success' | 'pending' | 'rejected';

/** A standalone 3-D Secure authentication (POST /v1/threeDSecure; migration 018). */
export interface StoredAuthentication {
  readonly id: string;
  readonly entityId: string;
  readonly status: AuthenticationStatus;
  readonly resultCode: string;
  readonly response: Record<string, unknown>;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

interface AuthenticationRow {
  id: string;
  entity_id: string;
  status: AuthenticationStatus;
  result_code: string;
  response: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

function toAuthentication(row: AuthenticationRow): StoredAuthentication {
  return { id: row.id, entityId: row.entity_id, status: row.status, resultCode: row.result_code, response: row.response, createdAt: row.created_at, updatedAt: row.updated_at };
}

export async function insertAuthentication(db: Queryable, a: StoredAuthentication): Promise<void> {
  await db.query(
    `INSERT INTO three_d_secure_authentications (id, entity_id, status, result_code, response, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [a.id, a.entityId, a.status, a.resultCode, JSON.stringify(a.response), a.createdAt, a.updatedAt],
  );
}

/** Another entity's authentication is not found. */
export async function findAuthentication(db: Queryable, entityId: string, id: string): Promise<StoredAuthentication | undefined> {
  const { rows } = await db.query<AuthenticationRow>('SELECT * FROM three_d_secure_authentications WHERE id = $1 AND entity_id = $2', [id, entityId]);
  return rows[0] ? toAuthentication(rows[0]) : undefined;
}

export async function findAuthenticationById(db: Queryable, id: string): Promise<StoredAuthentication | undefined> {
  const { rows } = await db.query<AuthenticationRow>('SELECT * FROM three_d_secure_authentications WHERE id = $1', [id]);
  return rows[0] ? toAuthentication(rows[0]) : undefined;
}

/** Ends a pending authentication; a final one keeps its result (answers false). */
export async function endAuthentication(db: Queryable, id: string, end: { status: 'success' | 'rejected'; resultCode: string; response: Record<string, unknown>; at: Date }): Promise<boolean> {
  const result = await db.query(
    `UPDATE three_d_secure_authentications SET status = $2, result_code = $3, response = $4, updated_at = $5 WHERE id = $1 AND status = 'pending'`,
    [id, end.status, end.resultCode, JSON.stringify(end.response), end.at],
  );
  return result.rowCount > 0;
}
