import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { totpUri } from '../../domain/people/totp.js';
import { beginTotpEnrollment, completeSignIn, confirmTotpEnrollment, pendingTotpSecret } from '../../operations/people/second-factor.js';
import type { ConsoleUser } from '../console-user.js';
import { consoleNext, formField } from '../form-fields.js';
import { EnrollPage, RecoveryCodesPage } from '../pages/second-factor-pages.js';
import { qrCodeDataUri } from '../qr-code.js';
import { sendPage } from '../render.js';
import { setSessionCookie } from '../sessions/session-cookie.js';

interface Enrolling {
  readonly userId: string;
  readonly email: string;
  readonly user: ConsoleUser | undefined;
  readonly action: string;
}

async function showEnrollment(request: FastifyRequest, reply: FastifyReply, who: Enrolling, secret: string, error?: string): Promise<FastifyReply> {
  const next = consoleNext(request.method === 'GET' ? (request.query as Record<string, unknown>)['next'] : formField(request, 'next'));
  const page = (
    <EnrollPage system={request.server.gateway.config.system} user={who.user} csrfToken={request.consoleCsrfToken} action={who.action} next={next}
      secret={secret} qrDataUri={await qrCodeDataUri(totpUri(secret, who.email))} error={error} />
  );
  return sendPage(reply, page, error ? 401 : 200);
}

/**
 * GET shows a new key (a reload makes another; the one before never worked); POST confirms it with
 * a first code, makes the recovery codes and shows them once. `done` runs after the confirmation
 * (at sign-in: the session gets its full rights and a new id) and answers where to continue.
 */
function registerEnrollment(app: FastifyInstance, action: string, whoOf: (request: FastifyRequest) => Enrolling | undefined, done: (request: FastifyRequest, reply: FastifyReply) => Promise<string | undefined>): void {
  const access = action.startsWith('/console/sign-in') ? 'anonymous' : 'signed-in';
  app.get(action, { config: { console: access } }, async (request, reply) => {
    const who = whoOf(request);
    const secret = who && (await beginTotpEnrollment(request.server.consoleServices.people, who.userId));
    if (!who || secret === undefined) return reply.redirect(who ? '/console/account' : '/console/sign-in', 303);
    return showEnrollment(request, reply, who, secret);
  });
  app.post(action, { config: { console: access } }, async (request, reply) => {
    const who = whoOf(request);
    if (!who) return reply.redirect('/console/sign-in', 303);
    const people = request.server.consoleServices.people;
    const result = await confirmTotpEnrollment(people, who.userId, formField(request, 'code'));
    if (result.kind === 'wrong-code') {
      const secret = await pendingTotpSecret(people, who.userId);
      if (secret === undefined) return reply.redirect(action, 303);
      return showEnrollment(request, reply, who, secret, 'That code is wrong. Check the time of your phone and type the code the app shows now.');
    }
    const continueHref = await done(request, reply);
    if (continueHref === undefined) return reply.redirect('/console/sign-in', 303);
    return sendPage(reply, <RecoveryCodesPage system={request.server.gateway.config.system} user={request.consoleUser} csrfToken={request.consoleCsrfToken} codes={result.recoveryCodes} continueHref={continueHref} />);
  });
}

/** /console/sign-in/enroll (a person who must have a second factor and has none) and /console/account/second-factor. */
export function registerEnrollments(app: FastifyInstance): void {
  registerEnrollment(app, '/console/sign-in/enroll', (request) => {
    const pending = request.consolePendingSignIn;
    return pending && pending.user.totpEnabledAt === null ? { userId: pending.user.id, email: pending.user.email, user: undefined, action: '/console/sign-in/enroll' } : undefined;
  }, async (request, reply) => {
    const pending = request.consolePendingSignIn!;
    const token = await completeSignIn(request.server.consoleServices.people, pending.token, pending.user);
    if (token === undefined) return undefined;
    setSessionCookie(request, reply, token);
    return consoleNext(formField(request, 'next'));
  });
  registerEnrollment(app, '/console/account/second-factor', (request) => {
    const user = request.consoleUser;
    return user ? { userId: user.id, email: user.email, user, action: '/console/account/second-factor' } : undefined;
  }, async () => '/console/account');
}
