import type { Role } from '../domain/access/roles.js';

/** The person a console request acts as, resolved from the session cookie on every request. */
export interface ConsoleUser {
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  /** The merchant the person belongs to; null for operators, who see every merchant. */
  readonly merchantId: string | null;
  /** The session this request came with (sign-out ends it; sign-out everywhere ends all of the user's). */
  readonly sessionId: string;
}
