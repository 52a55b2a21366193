import type { Role } from './roles.js';

/**
 * What each role may do: one row per action, the roles allowed to perform it. Every console
 * route and every audited admin operation names its action; the server checks it on every
 * request (never the page alone). Part two of the console adds its rows here.
 */
export const PERMISSIONS = {
  'overview.view': { describe: 'See the overview: volumes, approval and decline rates, 3-D Secure, chargebacks, refunds, pending backlog', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin', 'developer', 'finance', 'support', 'read-only'] },
  'payments.view': { describe: 'Search payments and open a payment', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin', 'developer', 'finance', 'support', 'read-only'] },
  'payments.export': { describe: 'Download a search as CSV', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin', 'finance'] },
  'payments.capture': { describe: 'Capture a preauthorization', roles: ['operator-admin', 'operator-support', 'merchant-admin', 'finance', 'support'] },
  'payments.refund': { describe: 'Refund a payment (in full or in part)', roles: ['operator-admin', 'operator-support', 'merchant-admin', 'finance', 'support'] },
  'payments.reverse': { describe: 'Reverse a payment', roles: ['operator-admin', 'operator-support', 'merchant-admin', 'finance', 'support'] },
  'payments.resolve-pending': { describe: 'Resolve a pending payment by hand, with a reason', roles: ['operator-admin', 'operator-support'] },
  'notifications.view': { describe: 'See notifications and their delivery attempts', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin', 'developer', 'support'] },
  'notifications.resend': { describe: 'Send a notification again', roles: ['operator-admin', 'operator-support', 'merchant-admin', 'developer', 'support'] },
  'credentials.view': { describe: 'List API credentials and their last use', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin', 'developer'] },
  'credentials.manage': { describe: 'Create and revoke API credentials', roles: ['operator-admin', 'merchant-admin', 'developer'] },
  'credentials.legacy-auth': { describe: "Turn OPPWA's authentication.* fields on or off for the merchant or a channel", roles: ['operator-admin', 'merchant-admin'] },
  'webhooks.view': { describe: 'List webhooks and their delivery log', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin', 'developer'] },
  'webhooks.manage': { describe: 'Create, change and delete webhooks; rotate secrets; send a test', roles: ['operator-admin', 'merchant-admin', 'developer'] },
  'request-log.view': { describe: 'See recent API requests', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin', 'developer'] },
  'users.view': { describe: 'List people and their roles', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin'] },
  'users.manage': { describe: 'Invite, change the role of, lock and remove people', roles: ['operator-admin', 'merchant-admin'] },
  'merchant-security.manage': { describe: "Require a second factor of the merchant's people", roles: ['operator-admin', 'merchant-admin'] },
  'audit.view': { describe: 'Read and export the audit log', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin'] },
  'audit.verify': { describe: "Verify the audit log's hash chain", roles: ['operator-admin'] },
  'system.view': { describe: 'See the system status: processes, versions, migrations, database and Redis health (operators only)', roles: ['operator-admin', 'operator-support', 'operator-read-only'] },
  'jobs.view': { describe: 'See the background jobs by kind and state, and the failed ones with their last error', roles: ['operator-admin', 'operator-support', 'operator-read-only'] },
  'jobs.retry': { describe: 'Run failed background jobs again, one or all of a kind', roles: ['operator-admin', 'operator-support'] },
  'entities.view': { describe: 'List every merchant and channel with its settings', roles: ['operator-admin', 'operator-support', 'operator-read-only'] },
  'entities.manage': { describe: 'Create merchants and channels; change their 3-D Secure requirement, legacy authentication, unknown-parameter mode and connector details', roles: ['operator-admin'] },
  'routes.view': { describe: 'List the connectors and the routes to them', roles: ['operator-admin', 'operator-support', 'operator-read-only'] },
  'routes.manage': { describe: "Add and disable routes; rotate a route's connector credentials", roles: ['operator-admin'] },
  'vault.view': { describe: "See the vault's keys: which master key is current, the data keys each wraps", roles: ['operator-admin', 'operator-support', 'operator-read-only'] },
  'vault.rotate': { describe: "Rotate the vault's data keys to the current master key", roles: ['operator-admin'] },
  'schedules.view': { describe: 'List schedules, open one with its runs and next fire times', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin', 'developer', 'finance', 'support', 'read-only'] },
  'schedules.manage': { describe: 'Reschedule (a new job expression) and deschedule a schedule', roles: ['operator-admin', 'operator-support', 'merchant-admin', 'finance', 'support'] },
  'schedules.test-clock': { describe: "Move a schedule's test clock forward (test system only)", roles: ['operator-admin', 'operator-support', 'merchant-admin', 'developer'] },
  'pending.view': { describe: 'See the queue of pending payments, their age and next status check', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin', 'finance', 'support'] },
  'risk.view': { describe: 'See the black- and whitelists and the payments waiting for a manual review', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin'] },
  'risk.lists.manage': { describe: 'Add, remove and import black- and whitelist entries', roles: ['operator-admin', 'operator-support', 'merchant-admin'] },
  'risk.review': { describe: 'Accept or reject (reverse) a payment the risk rules sent to manual review, with a reason', roles: ['operator-admin', 'operator-support', 'merchant-admin'] },
  'risk.rules.view': { describe: 'See the risk rule sets and their versions', roles: ['operator-admin', 'operator-support', 'operator-read-only'] },
  'risk.rules.manage': { describe: 'Change a risk rule set or restore an earlier version', roles: ['operator-admin'] },
  'settlement.view': { describe: 'See settlement batches with their records, and chargebacks with their reversals', roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin', 'finance', 'read-only'] },
  'settlement.download': { describe: "Download a merchant's reconciliation file of a day", roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin', 'finance'] },
  // Who may fetch the files and where they go is read by those who set up or use the delivery
  // (finance reconciles, a developer wires the merchant's SFTP client) and by operators in support.
  'settlement.delivery.view': { describe: "See how the merchant receives its reconciliation files: its SFTP keys (type, fingerprint) and its push target's URL", roles: ['operator-admin', 'operator-support', 'operator-read-only', 'merchant-admin', 'developer', 'finance'] },
  // A key or a push target hands every day's settlement data to whoever holds it: as granting
  // access to people (users.manage), only the merchant's administrator and an operator administrator.
  'settlement.delivery.manage': { describe: 'Add and remove SFTP keys; set, replace and remove the push target', roles: ['operator-admin', 'merchant-admin'] },
} as const satisfies Record<string, { readonly describe: string; readonly roles: readonly Role[] }>;

export type Action = keyof typeof PERMISSIONS;

export const ACTIONS = Object.keys(PERMISSIONS) as readonly Action[];

export function mayPerform(role: Role, action: Action): boolean {
  return (PERMISSIONS[action].roles as readonly Role[]).includes(role);
}

export function isAction(value: string): value is Action {
  return Object.hasOwn(PERMISSIONS, value);
}
