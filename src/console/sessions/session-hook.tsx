import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { resolveSession } from '../../operations/people/sessions.js';
import type { StoredUser } from '../../storage/repositories/console-users.js';
import { Layout } from '../pages/layout.js';
import { sendPage } from '../render.js';
import '../route-config.js';
import { csrfTokenFor, csrfTokenMatches } from './csrf.js';
import { clearSessionCookie, sessionCookie, setVisitorCookie, visitorCookie } from './session-cookie.js';

/** A sign-in that has passed the password and waits for its second factor. */
export interface PendingSignIn {
  readonly token: string;
  readonly user: StoredUser;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The CSRF token every console form carries in its hidden `_csrf` field ('' on assets). */
    consoleCsrfToken: string;
    /** Set instead of consoleUser while a sign-in waits for its second factor. */
    consolePendingSignIn: PendingSignIn | undefined;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// Where a person signed in with a one-time password may go before choosing their own.
const PASSWORD_PATHS = new Set(['/console/account/password', '/console/sign-out']);

/**
 * The console's sessions: every request's cookie is resolved to its person (request.consoleUser)
 * before the access check, and every change (any method but GET/HEAD) must carry the CSRF token
 * of the cookie it came with, or it is refused before anything else looks at it.
 */
export function registerConsoleSessions(app: FastifyInstance): void {
  app.decorateRequest('consoleCsrfToken', '');
  app.decorateRequest('consolePendingSignIn', undefined);
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/console/assets/')) return;
    // Pages hold people's data (and once, a new person's password): no cache keeps a copy.
    reply.header('cache-control', 'no-store');
    const mustChangePassword = await resolvePerson(request, reply);
    if (mustChangePassword && !PASSWORD_PATHS.has(request.routeOptions.url ?? '')) return reply.redirect('/console/account/password', 303);
  });
  app.addHook('preHandler', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    // The session's token, or the visitor's (the sign-in form; a form from a session that has since ended).
    const submitted = (request.body as Record<string, unknown> | undefined)?.['_csrf'];
    if (csrfTokenMatches(sessionCookie(request), submitted) || csrfTokenMatches(visitorCookie(request), submitted)) return;
    return refuseForgery(request, reply);
  });
}

/** Resolves the cookie's person; answers whether they must first replace a one-time password. */
async function resolvePerson(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const token = sessionCookie(request);
  const services = request.server.consoleServices;
  const resolved = token === undefined ? undefined : await resolveSession(services.people, token, services.sessionLimits);
  if (token !== undefined && resolved) {
    const { user, session } = resolved;
    request.consoleCsrfToken = csrfTokenFor(token);
    if (session.stage === 'signed-in') request.consoleUser = { id: user.id, email: user.email, role: user.role, merchantId: user.merchantId, sessionId: session.idHash };
    else request.consolePendingSignIn = { token, user };
    return session.stage === 'signed-in' && user.passwordMustChange;
  }
  // A cookie of a session that has ended is dropped; the visitor's value binds the sign-in form.
  if (token !== undefined) clearSessionCookie(request, reply);
  let visitor = visitorCookie(request);
  if (visitor === undefined) {
    visitor = randomBytes(24).toString('base64url');
    setVisitorCookie(request, reply, visitor);
  }
  request.consoleCsrfToken = csrfTokenFor(visitor);
  return false;
}

function refuseForgery(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const system = request.server.gateway.config.system;
  return sendPage(reply, (
    <Layout title="Form expired" user={request.consoleUser} system={system} path={request.url} csrfToken={request.consoleCsrfToken}>
      <p>This form was not sent from your current session (it may have been open before you signed in again). Go back, reload the page and send it again.</p>
    </Layout>
  ), 403);
}
