import { createHash, randomBytes } from 'node:crypto';
import type { Actor } from '../../domain/access/actor.js';
import { sessionExpiry, sessionNeedsTouch, type SessionLimits } from '../../domain/people/session-rules.js';
import { findUser, type StoredUser } from '../../storage/repositories/console-users.js';
import { deleteSession, deleteUserSessions, findSession, insertSession, touchSession, type SessionStage, type StoredSession } from '../../storage/repositories/console-sessions.js';
import { recordChange } from '../audit/record-change.js';
import type { PeopleDeps } from './deps.js';

/** Where a sign-in came from, kept with the session (the account page lists them). */
export interface SessionOrigin {
  readonly address: string;
  readonly userAgent: string;
}

/** A session's id as the cookie carries it: 256 random bits. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The only form of the id the database holds. */
export function sessionIdHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export async function startSession(deps: PeopleDeps, userId: string, stage: SessionStage, origin: SessionOrigin): Promise<string> {
  const token = newSessionToken();
  const now = deps.clock.now();
  await insertSession(deps.storage, { idHash: sessionIdHash(token), userId, stage, createdAt: now, lastSeenAt: now, address: origin.address, userAgent: origin.userAgent.slice(0, 300) });
  return token;
}

export interface ResolvedSession {
  readonly session: StoredSession;
  readonly user: StoredUser;
}

/**
 * The session a cookie names, if it is still alive: not idle too long, not older than the limit,
 * its person not disabled. A dead session is deleted as it is found. Its last use is written at
 * most once a minute (session-rules.ts).
 */
export async function resolveSession(deps: PeopleDeps, token: string, limits: SessionLimits): Promise<ResolvedSession | undefined> {
  const idHash = sessionIdHash(token);
  const session = await findSession(deps.storage, idHash);
  if (!session) return undefined;
  const now = deps.clock.now();
  const user = await findUser(deps.storage, session.userId);
  if (!user || user.disabledAt !== null || sessionExpiry(session, now, limits) !== undefined) {
    await deleteSession(deps.storage, idHash);
    return undefined;
  }
  if (sessionNeedsTouch(session, now)) await touchSession(deps.storage, idHash, now);
  return { session, user };
}

export async function endSession(deps: PeopleDeps, token: string): Promise<void> {
  await deleteSession(deps.storage, sessionIdHash(token));
}

/** Sign-out everywhere: ends every session of the person, this one included; audited. */
export async function endAllSessions(deps: PeopleDeps, actor: Actor, user: Pick<StoredUser, 'id' | 'merchantId'>): Promise<number> {
  return deps.storage.transaction(async (tx) => {
    const ended = await deleteUserSessions(tx, user.id);
    await recordChange(tx, deps.clock, { actor, action: 'sessions.end-all', target: { kind: 'user', id: user.id }, merchantId: user.merchantId, after: { sessionsEnded: ended } });
    return ended;
  });
}
