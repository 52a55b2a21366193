import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ConsoleArea } from '../../src/console/console-plugin.js';
import { registerConsole } from '../../src/console/console-plugin.js';
import type { Role } from '../../src/domain/access/roles.js';
import type { Storage } from '../../src/storage/port.js';

const OPERATOR_ROLES = new Set<Role>(['operator-admin', 'operator-support', 'operator-read-only']);

/**
 * The console's plugin and access check with some of its areas, and a stand-in for the session
 * hook (sessions are another area's): the header x-test-role names the person's role; a
 * merchant role belongs to `merchantId`.
 */
export async function consoleStandIn(storage: Storage, areas: readonly ConsoleArea[], merchantId: string): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(formbody);
  app.decorate('gateway', { storage, config: { system: 'test' }, clock: { now: () => new Date('2026-11-27T09:00:00Z') } } as never);
  app.addHook('onRequest', async (request) => {
    const role = request.headers['x-test-role'] as Role | undefined;
    if (!role) return;
    request.consoleUser = { id: 'c'.repeat(32), email: `${role}@example.com`, role, merchantId: OPERATOR_ROLES.has(role) ? null : merchantId, sessionId: 's' };
  });
  await registerConsole(app, areas);
  return app;
}
