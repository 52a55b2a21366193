/**
 * The console's roles (issue 31). Operators run the gateway and see every merchant; a merchant's
 * people see their merchant and its channels only. What each role may do is data
 * (permissions.ts), rendered into docs/console.md.
 */
export const OPERATOR_ROLES = ['operator-admin', 'operator-support', 'operator-read-only'] as const;
export const MERCHANT_ROLES = ['merchant-admin', 'developer', 'finance', 'support', 'read-only'] as const;

export type OperatorRole = (typeof OPERATOR_ROLES)[number];
export type MerchantRole = (typeof MERCHANT_ROLES)[number];
export type Role = OperatorRole | MerchantRole;

export const ROLES: readonly Role[] = [...OPERATOR_ROLES, ...MERCHANT_ROLES];

export const ROLE_TITLES: Readonly<Record<Role, string>> = {
  'operator-admin': 'Operator admin',
  'operator-support': 'Operator support',
  'operator-read-only': 'Operator read-only',
  'merchant-admin': 'Merchant admin',
  developer: 'Developer',
  finance: 'Finance',
  support: 'Support',
  'read-only': 'Read-only',
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function isOperatorRole(role: Role): role is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(role);
}

/** Every operator role signs in with a second factor; a merchant may require it of its people too. */
export function requiresSecondFactor(role: Role, merchantRequiresIt: boolean): boolean {
  return isOperatorRole(role) || merchantRequiresIt;
}
