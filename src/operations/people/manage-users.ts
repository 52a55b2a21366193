import type { Actor, Visibility } from '../../domain/access/actor.js';
import { isRole } from '../../domain/access/roles.js';
import { roleAssignmentProblem, type Assigner } from '../../domain/people/role-assignment.js';
import { deleteUserSessions } from '../../storage/repositories/console-sessions.js';
import { findUser, listUsers, replaceRecoveryCodes, saveDisabled, saveRole, saveTotpSecret, type StoredUser } from '../../storage/repositories/console-users.js';
import type { Queryable } from '../../storage/port.js';
import { recordChange } from '../audit/record-change.js';
import type { PeopleDeps } from './deps.js';

/** The people a person may see: every one for operators, their merchant's for a merchant's people. */
export function listPeople(deps: PeopleDeps, visibility: Visibility): Promise<StoredUser[]> {
  return listUsers(deps.storage, visibility.kind === 'all' ? null : visibility.merchantId);
}

/** One person, if visible: another merchant's person is as unknown as one who does not exist. */
export async function findPerson(db: Queryable, visibility: Visibility, userId: string): Promise<StoredUser | undefined> {
  if (!/^[0-9a-f]{32}$/.test(userId)) return undefined;
  const user = await findUser(db, userId);
  if (!user || (visibility.kind === 'merchant' && user.merchantId !== visibility.merchantId)) return undefined;
  return user;
}

export type ManageResult = { readonly kind: 'done' } | { readonly kind: 'not-found' } | { readonly kind: 'refused'; readonly problem: string };

interface Manager extends Assigner {
  readonly visibility: Visibility;
  /** The person acting: nobody disables themself or takes their own admin role away (locking everyone out). */
  readonly userId: string | null;
}

type Change = (tx: Queryable, user: StoredUser) => Promise<{ before: unknown; after: unknown } | { problem: string }>;

/** Loads the person under a row lock, checks the manager may touch them, applies and audits one change. */
async function manage(deps: PeopleDeps, actor: Actor, manager: Manager, userId: string, action: string, change: Change): Promise<ManageResult> {
  return deps.storage.transaction(async (tx) => {
    const visible = await findPerson(tx, manager.visibility, userId);
    const user = visible && (await findUser(tx, visible.id, { lock: true }));
    if (!user) return { kind: 'not-found' } as const;
    const mayTouch = roleAssignmentProblem(manager, user.role, user.merchantId);
    if (mayTouch) return { kind: 'refused', problem: mayTouch } as const;
    if (user.id === manager.userId) return { kind: 'refused', problem: 'you cannot change your own access here' } as const;
    const outcome = await change(tx, user);
    if ('problem' in outcome) return { kind: 'refused', problem: outcome.problem } as const;
    await recordChange(tx, deps.clock, { actor, action, target: { kind: 'user', id: user.id }, merchantId: user.merchantId, before: outcome.before, after: outcome.after });
    return { kind: 'done' } as const;
  });
}

export function changeRole(deps: PeopleDeps, actor: Actor, manager: Manager, userId: string, role: string): Promise<ManageResult> {
  return manage(deps, actor, manager, userId, 'users.change-role', async (tx, user) => {
    if (!isRole(role)) return { problem: 'is not a role' };
    const problem = roleAssignmentProblem(manager, role, user.merchantId);
    if (problem) return { problem };
    await saveRole(tx, user.id, role);
    // Sessions carry no role: the next request already sees the new one.
    return { before: { role: user.role }, after: { role } };
  });
}

/** Disables (every session ends at once) or enables a person again. */
export function setDisabled(deps: PeopleDeps, actor: Actor, manager: Manager, userId: string, disabled: boolean): Promise<ManageResult> {
  return manage(deps, actor, manager, userId, disabled ? 'users.disable' : 'users.enable', async (tx, user) => {
    await saveDisabled(tx, user.id, disabled ? deps.clock.now() : null);
    if (disabled) await deleteUserSessions(tx, user.id);
    return { before: { disabled: user.disabledAt !== null }, after: { disabled } };
  });
}

/** Removes a lost authenticator and its recovery codes: the person enrols a new one at the next sign-in. */
export function resetSecondFactor(deps: PeopleDeps, actor: Actor, manager: Manager, userId: string): Promise<ManageResult> {
  return manage(deps, actor, manager, userId, 'users.reset-second-factor', async (tx, user) => {
    await saveTotpSecret(tx, user.id, null);
    await replaceRecoveryCodes(tx, user.id, []);
    await deleteUserSessions(tx, user.id);
    return { before: { secondFactor: user.totpEnabledAt !== null }, after: { secondFactor: false } };
  });
}
