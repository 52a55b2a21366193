import { requiresSecondFactor } from '../../domain/access/roles.js';
import { afterFailure, lockedUntil, NO_FAILURES } from '../../domain/people/lockout.js';
import { findUserByEmail, saveFailures, type StoredUser } from '../../storage/repositories/console-users.js';
import type { PeopleDeps } from './deps.js';
import { verifyDecoy, verifyPassword } from './passwords.js';
import { startSession, type SessionOrigin } from './sessions.js';
import { merchantRequiresSecondFactor } from './merchant-security.js';

export type SignInResult =
  /** A new session (never the one the browser came with: no session fixation); its stage says what comes next. */
  | { readonly kind: 'session'; readonly token: string; readonly stage: 'second-factor' | 'signed-in'; readonly userId: string }
  /** Unknown address, wrong password or disabled person: one answer for all, so addresses cannot be probed. */
  | { readonly kind: 'refused' }
  | { readonly kind: 'locked'; readonly until: Date };

/** Whether this person must give a second factor after the password. */
export async function needsSecondFactor(deps: PeopleDeps, user: StoredUser): Promise<boolean> {
  if (user.totpEnabledAt !== null) return true;
  return requiresSecondFactor(user.role, user.merchantId !== null && (await merchantRequiresSecondFactor(deps.storage, user.merchantId)));
}

/** Counts a failed password or code against the account (lock-out, lockout.ts). */
export async function countAccountFailure(deps: PeopleDeps, user: StoredUser): Promise<void> {
  await saveFailures(deps.storage, user.id, afterFailure(user, deps.clock.now()));
}

export async function clearFailures(deps: PeopleDeps, user: StoredUser): Promise<void> {
  if (user.failedSignIns > 0 || user.lockCount > 0 || user.lockedUntil !== null) await saveFailures(deps.storage, user.id, NO_FAILURES);
}

/** The first step of signing in: e-mail address and password. */
export async function signInWithPassword(deps: PeopleDeps, email: string, password: string, origin: SessionOrigin): Promise<SignInResult> {
  const user = await findUserByEmail(deps.storage, email.trim());
  if (!user) {
    await verifyDecoy(password);
    return { kind: 'refused' };
  }
  const until = lockedUntil(user, deps.clock.now());
  if (until) return { kind: 'locked', until };
  if (!(await verifyPassword(user.passwordHash, password)) || user.disabledAt !== null) {
    if (user.disabledAt === null) await countAccountFailure(deps, user);
    return { kind: 'refused' };
  }
  const stage = (await needsSecondFactor(deps, user)) ? 'second-factor' : 'signed-in';
  // With a second factor the counts are cleared only once the code is right too: else a thief of
  // the password could guess codes forever, clearing the count with the password between tries.
  if (stage === 'signed-in') await clearFailures(deps, user);
  return { kind: 'session', token: await startSession(deps, user.id, stage, origin), stage, userId: user.id };
}
