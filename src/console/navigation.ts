import { mayPerform, type Action } from '../domain/access/permissions.js';
import type { Role } from '../domain/access/roles.js';

/** One entry of the console's navigation: shown to the roles that may perform its action. */
export interface NavigationItem {
  readonly label: string;
  readonly href: string;
  readonly action: Action;
}

/**
 * The console's areas, in the order the navigation shows them. Part two of the console (the
 * overview, risk, schedules, settlement, pending payments, operator areas) adds its entries here.
 */
export const NAVIGATION: readonly NavigationItem[] = [
  { label: 'Overview', href: '/console/overview', action: 'overview.view' },
  { label: 'Payments', href: '/console/payments', action: 'payments.view' },
  { label: 'Schedules', href: '/console/schedules', action: 'schedules.view' },
  { label: 'Pending', href: '/console/pending', action: 'pending.view' },
  { label: 'Risk', href: '/console/risk', action: 'risk.view' },
  { label: 'Settlement', href: '/console/settlement', action: 'settlement.view' },
  { label: 'Developers', href: '/console/developers', action: 'credentials.view' },
  { label: 'People', href: '/console/people', action: 'users.view' },
  { label: 'Audit log', href: '/console/audit', action: 'audit.view' },
  { label: 'Operator', href: '/console/operator', action: 'system.view' },
];

export function navigationFor(role: Role): readonly NavigationItem[] {
  return NAVIGATION.filter((item) => mayPerform(role, item.action));
}
