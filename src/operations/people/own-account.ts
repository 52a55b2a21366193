import type { Actor } from '../../domain/access/actor.js';
import { passwordProblem } from '../../domain/people/password-policy.js';
import { newRecoveryCodes, recoveryCodeHash } from '../../domain/people/totp.js';
import { deleteUserSessions } from '../../storage/repositories/console-sessions.js';
import { countUnusedRecoveryCodes, findUser, replaceRecoveryCodes, savePassword } from '../../storage/repositories/console-users.js';
import { recordChange } from '../audit/record-change.js';
import type { PeopleDeps } from './deps.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { sessionIdHash } from './sessions.js';

export type PasswordChange = { readonly kind: 'changed' } | { readonly kind: 'refused'; readonly field: 'current' | 'password'; readonly problem: string };

/**
 * A person changes their own password (the current one confirms it is them). Every other session
 * of theirs ends: whoever knew the old password is signed out. Audited without the passwords.
 */
export async function changeOwnPassword(deps: PeopleDeps, actor: Actor, userId: string, keepSessionToken: string, current: string, next: string): Promise<PasswordChange> {
  const user = await findUser(deps.storage, userId);
  if (!user || !(await verifyPassword(user.passwordHash, current))) return { kind: 'refused', field: 'current', problem: 'is not your current password' };
  const weak = passwordProblem(next, user.email) ?? (current === next ? 'must differ from the current one' : undefined);
  if (weak) return { kind: 'refused', field: 'password', problem: weak };
  const passwordHash = await hashPassword(next);
  await deps.storage.transaction(async (tx) => {
    await savePassword(tx, userId, passwordHash, false);
    await deleteUserSessions(tx, userId, sessionIdHash(keepSessionToken));
    await recordChange(tx, deps.clock, { actor, action: 'account.change-password', target: { kind: 'user', id: userId }, merchantId: user.merchantId });
  });
  return { kind: 'changed' };
}

/** New recovery codes (the old ones stop working), shown once. */
export async function renewRecoveryCodes(deps: PeopleDeps, actor: Actor, userId: string): Promise<readonly string[] | undefined> {
  const user = await findUser(deps.storage, userId);
  if (!user || user.totpEnabledAt === null) return undefined;
  const codes = newRecoveryCodes();
  await deps.storage.transaction(async (tx) => {
    await replaceRecoveryCodes(tx, userId, codes.map(recoveryCodeHash));
    await recordChange(tx, deps.clock, { actor, action: 'account.renew-recovery-codes', target: { kind: 'user', id: userId }, merchantId: user.merchantId });
  });
  return codes;
}

export { countUnusedRecoveryCodes };
