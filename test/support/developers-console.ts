import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { CONSOLE_AREAS } from '../../src/console/areas.js';
import { registerConsole } from '../../src/console/console-plugin.js';
import type { ConsoleUser } from '../../src/console/console-user.js';
import { isOperatorRole, type Role } from '../../src/domain/access/roles.js';
import type { TestApp } from './test-app.js';

const USER_HEADER = 'x-test-console-user';

/**
 * The console's areas over a test app's gateway, with the signed-in person named by a header
 * instead of a session (until the people area's sessions are on main: then test/support/console.ts
 * signs in for real). The access check, the CSP and every area are the real ones.
 */
export async function consoleWithTestPeople(t: TestApp): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.decorate('gateway', t.app.gateway);
  await app.register(formbody);
  const signedIn = (console: FastifyInstance) => {
    console.addHook('onRequest', async (request) => {
      const raw = request.headers[USER_HEADER];
      if (typeof raw === 'string') request.consoleUser = JSON.parse(raw) as ConsoleUser;
    });
  };
  await registerConsole(app, [signedIn, ...CONSOLE_AREAS]);
  await app.ready();
  return app;
}

/** The header that signs a request in as a person of this role (of `merchantId` for a merchant role). */
export function asPerson(role: Role, merchantId?: string): Record<string, string> {
  const user: ConsoleUser = { id: `user-${role}`, email: `${role}@example.com`, role, merchantId: isOperatorRole(role) ? null : merchantId ?? null, sessionId: 's' };
  return { [USER_HEADER]: JSON.stringify(user) };
}
