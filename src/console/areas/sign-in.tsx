import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkSecondFactor, completeSignIn } from '../../operations/people/second-factor.js';
import { endSession } from '../../operations/people/sessions.js';
import { signInWithPassword } from '../../operations/people/sign-in.js';
import { consoleNext, formField } from '../form-fields.js';
import { SecondFactorPage, SignInPage, SignInRefusedPage } from '../pages/sign-in-pages.js';
import { sendPage } from '../render.js';
import { clearSessionCookie, sessionCookie, setSessionCookie } from '../sessions/session-cookie.js';

const WAIT_MESSAGE = 'Too many failed attempts. Wait a few minutes and try again.';

function systemOf(request: FastifyRequest): 'test' | 'live' {
  return request.server.gateway.config.system;
}

function nextOf(request: FastifyRequest): string {
  return consoleNext(request.method === 'GET' ? (request.query as Record<string, unknown>)['next'] : formField(request, 'next'));
}

/** Too many failures from this address (passwords and codes alike): 429 without checking anything. */
function refusedForAddress(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  const waitMs = request.server.consoleServices.signInFailures.retryAfterMs(request.ip);
  if (waitMs === 0) return undefined;
  reply.header('retry-after', String(Math.ceil(waitMs / 1000)));
  return sendPage(reply, <SignInRefusedPage system={systemOf(request)} message={WAIT_MESSAGE} />, 429);
}

function secondFactorAddress(next: string): string {
  return `/console/sign-in/code?next=${encodeURIComponent(next)}`;
}

/** GET/POST /console/sign-in: the password step. A new session is made at every sign-in. */
function registerPasswordStep(app: FastifyInstance): void {
  app.get('/console/sign-in', { config: { console: 'anonymous' } }, async (request, reply) => {
    const next = nextOf(request);
    if (request.consoleUser) return reply.redirect(next, 303);
    if (request.consolePendingSignIn) return reply.redirect(secondFactorAddress(next), 303);
    return sendPage(reply, <SignInPage system={systemOf(request)} csrfToken={request.consoleCsrfToken} next={next} />);
  });
  app.post('/console/sign-in', { config: { console: 'anonymous' } }, async (request, reply) => {
    const refused = refusedForAddress(request, reply);
    if (refused) return refused;
    const next = nextOf(request);
    const email = formField(request, 'email');
    const services = request.server.consoleServices;
    const result = await signInWithPassword(services.people, email, formField(request, 'password'), { address: request.ip, userAgent: String(request.headers['user-agent'] ?? '') });
    if (result.kind !== 'session') {
      await services.signInFailures.recordFailure(request.ip);
      if (result.kind === 'locked') {
        reply.header('retry-after', String(Math.max(1, Math.ceil((result.until.getTime() - services.people.clock.now().getTime()) / 1000))));
        return sendPage(reply, <SignInRefusedPage system={systemOf(request)} message={WAIT_MESSAGE} />, 429);
      }
      const error = 'The e-mail address or the password is wrong.';
      return sendPage(reply, <SignInPage system={systemOf(request)} csrfToken={request.consoleCsrfToken} next={next} email={email} error={error} />, 401);
    }
    // The session the browser came with (if any) ends: the new one has a new id (session fixation).
    const previous = sessionCookie(request);
    if (previous !== undefined) await endSession(services.people, previous);
    setSessionCookie(request, reply, result.token);
    return reply.redirect(result.stage === 'signed-in' ? next : secondFactorAddress(next), 303);
  });
}

/** GET/POST /console/sign-in/code: the second factor, after the password. */
function registerCodeStep(app: FastifyInstance): void {
  app.get('/console/sign-in/code', { config: { console: 'anonymous' } }, async (request, reply) => {
    const next = nextOf(request);
    const pending = request.consolePendingSignIn;
    if (!pending) return reply.redirect(request.consoleUser ? next : '/console/sign-in', 303);
    if (pending.user.totpEnabledAt === null) return reply.redirect(`/console/sign-in/enroll?next=${encodeURIComponent(next)}`, 303);
    return sendPage(reply, <SecondFactorPage system={systemOf(request)} csrfToken={request.consoleCsrfToken} next={next} />);
  });
  app.post('/console/sign-in/code', { config: { console: 'anonymous' } }, async (request, reply) => {
    const pending = request.consolePendingSignIn;
    if (!pending) return reply.redirect('/console/sign-in', 303);
    const refused = refusedForAddress(request, reply);
    if (refused) return refused;
    const next = nextOf(request);
    const services = request.server.consoleServices;
    const check = await checkSecondFactor(services.people, pending.user, formField(request, 'code'));
    if (check !== 'accepted') {
      await services.signInFailures.recordFailure(request.ip);
      if (check === 'locked') return sendPage(reply, <SignInRefusedPage system={systemOf(request)} message={WAIT_MESSAGE} />, 429);
      const error = check === 'replayed' ? 'That code has been used already. Wait for the next one.' : 'That code is wrong.';
      return sendPage(reply, <SecondFactorPage system={systemOf(request)} csrfToken={request.consoleCsrfToken} next={next} error={error} />, 401);
    }
    const token = await completeSignIn(services.people, pending.token, pending.user);
    if (token === undefined) return reply.redirect('/console/sign-in', 303);
    setSessionCookie(request, reply, token);
    return reply.redirect(next, 303);
  });
}

/** POST /console/sign-out: ends this session (the account page ends all of them). */
function registerSignOut(app: FastifyInstance): void {
  app.post('/console/sign-out', { config: { console: 'anonymous' } }, async (request, reply) => {
    const token = sessionCookie(request);
    if (token !== undefined) await endSession(request.server.consoleServices.people, token);
    clearSessionCookie(request, reply);
    return reply.redirect('/console/sign-in', 303);
  });
}

/** The sign-in area: open to everyone (the pages check the session's stage themselves). */
export function registerSignIn(app: FastifyInstance): void {
  registerPasswordStep(app);
  registerCodeStep(app);
  registerSignOut(app);
}
