import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mayPerform } from '../domain/access/permissions.js';
import { Layout } from './pages/layout.js';
import { sendPage } from './render.js';
import './route-config.js';

/**
 * The one place that decides whether a console request may proceed: every console route names
 * what it needs (route config `console`), and this hook checks it against the signed-in person on
 * every request, pages and changes alike. A route without a declaration is refused, so a page
 * added without thinking about access is closed rather than open.
 */
export function registerConsoleAccess(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    const access = request.routeOptions.config.console;
    if (access === 'anonymous') return;
    const user = request.consoleUser;
    if (access === undefined) return refuse(request, reply, 404, 'Not found', 'There is no such page.');
    if (!user) return askToSignIn(request, reply);
    if (access === 'signed-in' || mayPerform(user.role, access)) return;
    return refuse(request, reply, 403, 'Not allowed', 'Your role does not allow this. Ask an administrator of your account.');
  });
}

function askToSignIn(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (request.method === 'GET') {
    const next = encodeURIComponent(request.url);
    return reply.redirect(`/console/sign-in?next=${next}`, 303);
  }
  return refuse(request, reply, 401, 'Signed out', 'Your session has ended. Sign in again.');
}

function refuse(request: FastifyRequest, reply: FastifyReply, status: number, title: string, message: string): FastifyReply {
  const system = request.server.gateway.config.system;
  return sendPage(reply, <Layout title={title} user={request.consoleUser} system={system} path={request.url}><p>{message}</p></Layout>, status);
}
