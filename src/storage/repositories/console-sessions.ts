import type { Queryable } from '../port.js';

export type SessionStage = 'second-factor' | 'signed-in';

/** A console session as stored: the hash of its id, never the id. */
export interface StoredSession {
  readonly idHash: string;
  readonly userId: string;
  readonly stage: SessionStage;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  readonly address: string;
  readonly userAgent: string;
}

interface SessionRow {
  id_hash: string;
  user_id: string;
  stage: SessionStage;
  created_at: Date;
  last_seen_at: Date;
  address: string;
  user_agent: string;
}

function toSession(row: SessionRow): StoredSession {
  return { idHash: row.id_hash, userId: row.user_id.trim(), stage: row.stage, createdAt: row.created_at, lastSeenAt: row.last_seen_at, address: row.address, userAgent: row.user_agent };
}

export async function insertSession(db: Queryable, session: StoredSession): Promise<void> {
  await db.query(
    'INSERT INTO console_sessions (id_hash, user_id, stage, created_at, last_seen_at, address, user_agent) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [session.idHash, session.userId, session.stage, session.createdAt, session.lastSeenAt, session.address, session.userAgent],
  );
}

export async function findSession(db: Queryable, idHash: string): Promise<StoredSession | undefined> {
  const { rows } = await db.query<SessionRow>('SELECT * FROM console_sessions WHERE id_hash = $1', [idHash]);
  return rows[0] ? toSession(rows[0]) : undefined;
}

export async function touchSession(db: Queryable, idHash: string, at: Date): Promise<void> {
  await db.query('UPDATE console_sessions SET last_seen_at = $2 WHERE id_hash = $1', [idHash, at]);
}

/** Gives a session a new id (after the second factor) and its new stage; false when it is gone. */
export async function promoteSession(db: Queryable, idHash: string, newIdHash: string, stage: SessionStage, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE console_sessions SET id_hash = $2, stage = $3, last_seen_at = $4 WHERE id_hash = $1', [idHash, newIdHash, stage, at]);
  return rowCount === 1;
}

export async function deleteSession(db: Queryable, idHash: string): Promise<void> {
  await db.query('DELETE FROM console_sessions WHERE id_hash = $1', [idHash]);
}

/** Ends every session of a person (sign-out everywhere, disabled, password changed); how many ended. */
export async function deleteUserSessions(db: Queryable, userId: string, exceptIdHash: string | null = null): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM console_sessions WHERE user_id = $1 AND id_hash <> coalesce($2, \'\')', [userId, exceptIdHash]);
  return rowCount;
}

export async function listUserSessions(db: Queryable, userId: string): Promise<StoredSession[]> {
  const { rows } = await db.query<SessionRow>('SELECT * FROM console_sessions WHERE user_id = $1 ORDER BY last_seen_at DESC', [userId]);
  return rows.map(toSession);
}
