import type { Action } from '../domain/access/permissions.js';
import type { ConsoleUser } from './console-user.js';

/**
 * What a console route declares (route config `console`): the action it performs, checked
 * against the signed-in person's role on every request by console-access.ts, or 'signed-in'
 * for pages every person may open (their own account), or 'anonymous' for the sign-in pages.
 */
export type ConsoleAccess = Action | 'signed-in' | 'anonymous';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, set by the console's session hook; undefined when nobody is signed in. */
    consoleUser: ConsoleUser | undefined;
  }
  interface FastifyContextConfig {
    /** A console route: what it needs of the person asking. */
    console?: ConsoleAccess;
  }
}
