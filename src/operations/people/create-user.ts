import type { Actor } from '../../domain/access/actor.js';
import { isRole, type Role } from '../../domain/access/roles.js';
import { passwordProblem } from '../../domain/people/password-policy.js';
import { roleAssignmentProblem, type Assigner } from '../../domain/people/role-assignment.js';
import { findEntity } from '../../storage/repositories/entities.js';
import { insertUser } from '../../storage/repositories/console-users.js';
import { recordChange } from '../audit/record-change.js';
import type { PeopleDeps } from './deps.js';
import { hashPassword, newOneTimePassword } from './passwords.js';

export interface NewPerson {
  readonly email: string;
  readonly role: string;
  readonly merchantId: string | null;
  /** Absent: a one-time password is made, returned once, and must be changed at the first sign-in. */
  readonly password?: string | undefined;
}

export type CreateUserResult =
  | { readonly kind: 'created'; readonly userId: string; readonly oneTimePassword: string | undefined }
  | { readonly kind: 'refused'; readonly field: 'email' | 'role' | 'merchantId' | 'password'; readonly problem: string };

// Enough to catch a typo; the address is only ever used to sign in, never sent mail.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Creates a console person. `assigner` is who gives the role (a console person, or the operator's
 * own tools, which act as operator-admin); the change is audited in the same transaction.
 */
export async function createUser(deps: Pick<PeopleDeps, 'storage' | 'clock' | 'ids'>, actor: Actor, assigner: Assigner, person: NewPerson): Promise<CreateUserResult> {
  const email = person.email.trim();
  if (!EMAIL.test(email) || email.length > 254) return { kind: 'refused', field: 'email', problem: 'is not an e-mail address' };
  if (!isRole(person.role)) return { kind: 'refused', field: 'role', problem: 'is not a role' };
  const role: Role = person.role;
  const assignment = roleAssignmentProblem(assigner, role, person.merchantId);
  if (assignment) return { kind: 'refused', field: 'role', problem: assignment };
  if (person.merchantId !== null && (await findEntity(deps.storage, person.merchantId))?.kind !== 'merchant') return { kind: 'refused', field: 'merchantId', problem: 'is not a merchant' };
  const oneTimePassword = person.password === undefined ? newOneTimePassword() : undefined;
  const password = person.password ?? oneTimePassword!;
  const weak = passwordProblem(password, email);
  if (weak) return { kind: 'refused', field: 'password', problem: weak };
  const user = { id: deps.ids.id(), email, passwordHash: await hashPassword(password), passwordMustChange: oneTimePassword !== undefined, role, merchantId: person.merchantId, createdAt: deps.clock.now() };
  const created = await deps.storage.transaction(async (tx) => {
    if (!(await insertUser(tx, user))) return false;
    await recordChange(tx, deps.clock, { actor, action: 'users.create', target: { kind: 'user', id: user.id }, merchantId: user.merchantId, after: { email, role, merchantId: user.merchantId } });
    return true;
  });
  if (!created) return { kind: 'refused', field: 'email', problem: 'already has an account' };
  return { kind: 'created', userId: user.id, oneTimePassword };
}
