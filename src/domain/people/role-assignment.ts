import { isOperatorRole, type Role } from '../access/roles.js';

export const NOT_YOURS_TO_GIVE = 'your role may not give this role';

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
  const ownMerchant = assigner.role === 'merchant-admin' && !isOperatorRole(role) && merchantId !== null && merchantId === assigner.merchantId;
  if (assigner.role !== 'operator-admin' && !ownMerchant) return NOT_YOURS_TO_GIVE;
  if (isOperatorRole(role) !== (merchantId === null)) return isOperatorRole(role) ? 'an operator belongs to no merchant' : 'a merchant role needs a merchant';
  return undefined;
}
