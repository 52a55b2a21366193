import { checkTotp, looksLikeRecoveryCode, matchingTotpStep, newRecoveryCodes, newTotpSecret, recoveryCodeHash } from '../../domain/people/totp.js';
import { lockedUntil } from '../../domain/people/lockout.js';
import { enableTotp, findUser, replaceRecoveryCodes, saveTotpSecret, takeTotpStep, useRecoveryCode, type StoredUser } from '../../storage/repositories/console-users.js';
import { findSession, promoteSession } from '../../storage/repositories/console-sessions.js';
import type { PeopleDeps } from './deps.js';
import { newSessionToken, sessionIdHash } from './sessions.js';
import { clearFailures, countAccountFailure } from './sign-in.js';

// The vault binds each sealed secret to its record: a secret copied to another person's row does not open.
const totpContext = (userId: string) => `console-user-totp:${userId}`;

async function openTotpSecret(deps: PeopleDeps, user: StoredUser): Promise<string | undefined> {
  if (!user.totpSealed) return undefined;
  return (await deps.vault.open(totpContext(user.id), user.totpSealed))['secret'];
}

/**
 * Starts (or restarts) enrolling an authenticator for a person without one: a new secret, sealed,
 * not yet in force. Returns the secret to show once; undefined when the person already has one.
 */
export async function beginTotpEnrollment(deps: PeopleDeps, userId: string): Promise<string | undefined> {
  const user = await findUser(deps.storage, userId);
  if (!user || user.totpEnabledAt !== null) return undefined;
  const secret = newTotpSecret();
  await saveTotpSecret(deps.storage, userId, await deps.vault.seal(totpContext(userId), { secret }));
  return secret;
}

/** The secret being enrolled (to show the QR code again after a wrong code); undefined once in force. */
export async function pendingTotpSecret(deps: PeopleDeps, userId: string): Promise<string | undefined> {
  const user = await findUser(deps.storage, userId);
  if (!user || user.totpEnabledAt !== null) return undefined;
  return openTotpSecret(deps, user);
}

export type EnrollmentResult = { readonly kind: 'enrolled'; readonly recoveryCodes: readonly string[] } | { readonly kind: 'wrong-code' };

/** Puts the authenticator in force once it shows a right code; makes the 10 recovery codes (shown once). */
export async function confirmTotpEnrollment(deps: PeopleDeps, userId: string, code: string): Promise<EnrollmentResult> {
  const user = await findUser(deps.storage, userId);
  const secret = user && user.totpEnabledAt === null ? await openTotpSecret(deps, user) : undefined;
  const now = deps.clock.now();
  const step = secret === undefined ? undefined : matchingTotpStep(secret, code, now.getTime());
  if (!user || step === undefined) return { kind: 'wrong-code' };
  const recoveryCodes = newRecoveryCodes();
  await deps.storage.transaction(async (tx) => {
    await enableTotp(tx, userId, now, step);
    await replaceRecoveryCodes(tx, userId, recoveryCodes.map(recoveryCodeHash));
  });
  return { kind: 'enrolled', recoveryCodes };
}

export type CodeCheck = 'accepted' | 'wrong' | 'replayed' | 'locked';

/** Checks a TOTP code or a recovery code of a person with an authenticator in force; each is accepted once. */
export async function checkSecondFactor(deps: PeopleDeps, user: StoredUser, input: string): Promise<CodeCheck> {
  const now = deps.clock.now();
  if (lockedUntil(user, now)) return 'locked';
  const accepted = looksLikeRecoveryCode(input)
    ? await useRecoveryCode(deps.storage, user.id, recoveryCodeHash(input), now)
    : await checkTotpCode(deps, user, input, now);
  if (accepted === true) return 'accepted';
  await countAccountFailure(deps, user);
  return accepted === 'replayed' ? 'replayed' : 'wrong';
}

async function checkTotpCode(deps: PeopleDeps, user: StoredUser, code: string, now: Date): Promise<true | 'wrong' | 'replayed'> {
  const secret = await openTotpSecret(deps, user);
  if (secret === undefined || user.totpEnabledAt === null) return 'wrong';
  const check = checkTotp(matchingTotpStep(secret, code, now.getTime()), user.totpLastStep);
  if (check.kind !== 'accepted') return check.kind;
  return (await takeTotpStep(deps.storage, user.id, check.step)) ? true : 'replayed';
}

/**
 * Completes a sign-in that waits for its second factor: the session gets a new id (the one the
 * half-signed-in browser held is dead) and full rights. Returns the new token; undefined when the
 * session is gone.
 */
export async function completeSignIn(deps: PeopleDeps, token: string, user: StoredUser): Promise<string | undefined> {
  const session = await findSession(deps.storage, sessionIdHash(token));
  if (!session || session.userId !== user.id || session.stage !== 'second-factor') return undefined;
  const fresh = newSessionToken();
  if (!(await promoteSession(deps.storage, session.idHash, sessionIdHash(fresh), 'signed-in', deps.clock.now()))) return undefined;
  await clearFailures(deps, user);
  return fresh;
}
