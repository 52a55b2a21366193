import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../domain/access/actor.js';
import { createOperator } from '../../operations/people/create-operator.js';
import { adminField } from '../admin-fields.js';
import { sendWithEnvelope } from '../reply.js';

const admin = { config: { auth: 'admin' as const } };

/**
 * Who acts: the command line says so (it reaches the embedded database through this API while
 * the gateway holds it, and the audit log should name the person at the shell); otherwise the
 * holder of the admin token. Either way the token was checked: both may do anything.
 */
function actorOf(request: FastifyRequest): Actor {
  const osUser = adminField(request.body, 'cliUser', false);
  const host = adminField(request.body, 'cliHost', false);
  return osUser && host ? { kind: 'cli', osUser, host } : { kind: 'admin-api', address: request.ip };
}

/** POST /admin/console-users: an operator of the console (`gateway users create-operator`). */
export function registerConsoleUserAdminRoutes(app: FastifyInstance): void {
  app.post('/admin/console-users', admin, async (request, reply) => {
    const field = (name: string, required = false) => adminField(request.body, name, required);
    const deps = { storage: app.gateway.storage, clock: app.gateway.clock, ids: app.gateway.ids, vault: app.gateway.payments.vault };
    const created = await createOperator(deps, actorOf(request), { email: field('email', true)!, role: field('role'), password: field('password') });
    return sendWithEnvelope(request, reply, 201, created, '000.000.100');
  });
}
