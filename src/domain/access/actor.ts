import type { Role } from './roles.js';

/**
 * Who made a change, as the audit log records it. A change comes from a person in the console,
 * from a holder of the admin token (the admin API), or from the command line on the server.
 */
export type Actor =
  | { readonly kind: 'user'; readonly userId: string; readonly email: string; readonly role: Role; readonly merchantId: string | null; readonly address: string }
  | { readonly kind: 'admin-api'; readonly address: string }
  | { readonly kind: 'cli'; readonly osUser: string; readonly host: string }
  | { readonly kind: 'system'; readonly reason: string };

/** The name an audit entry shows for its actor. */
export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case 'user':
      return actor.email;
    case 'admin-api':
      return 'admin API token';
    case 'cli':
      return `${actor.osUser}@${actor.host} (command line)`;
    case 'system':
      return `gateway (${actor.reason})`;
  }
}

/**
 * What a person may see: an operator sees every entity; a merchant's person sees their merchant
 * and its channels. Checked on the server for every request (console-scope in operations).
 */
export type Visibility = { readonly kind: 'all' } | { readonly kind: 'merchant'; readonly merchantId: string };

export function visibilityOf(user: { readonly merchantId: string | null }): Visibility {
  return user.merchantId === null ? { kind: 'all' } : { kind: 'merchant', merchantId: user.merchantId };
}
