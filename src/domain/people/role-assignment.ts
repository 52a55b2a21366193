import { isOperatorRole, type Role } from '../access/roles.js';

/** Who asks to give a role: a person in the console (role and merchant), or the operator's tools. */
export interface Assigner {
  readonly role: Role;
  readonly merchantId: string | null;
}

/**
 * Whether `assigner` may give `role` in `merchantId` (null: an operator role). Operators' admins
 * give any role anywhere; a merchant's admin gives merchant roles in its own merchant only. The
 * role and the merchant must agree: operators belong to no merchant, everyone else to one.
 */
export function roleAssignmentProblem(assigner: Assigner, role: Role, merchantId: string | null): string | undefined {
  if (isOperatorRole(role) !== (merchantId === null)) return isOperatorRole(role) ? 'an operator belongs to no merchant' : 'a merchant role needs a merchant';
  if (assigner.role === 'operator-admin') return undefined;
  if (assigner.role === 'merchant-admin' && merchantId !== null && merchantId === assigner.merchantId) return undefined;
  return 'your role may not give this role';
}
