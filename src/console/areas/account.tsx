import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { changeOwnPassword, countUnusedRecoveryCodes, renewRecoveryCodes } from '../../operations/people/own-account.js';
import { endAllSessions } from '../../operations/people/sessions.js';
import { findUser } from '../../storage/repositories/console-users.js';
import { listUserSessions } from '../../storage/repositories/console-sessions.js';
import { consoleActor } from '../console-actor.js';
import { formField } from '../form-fields.js';
import { AccountPage, PasswordPage } from '../pages/account-page.js';
import { RecoveryCodesPage } from '../pages/second-factor-pages.js';
import { sendPage } from '../render.js';
import { clearSessionCookie, sessionCookie } from '../sessions/session-cookie.js';
import { registerEnrollments } from './enrollment.js';

const SIGNED_IN = { config: { console: 'signed-in' as const } };

async function showAccount(request: FastifyRequest, reply: FastifyReply, message?: string): Promise<FastifyReply> {
  const user = request.consoleUser!;
  const people = request.server.consoleServices.people;
  const person = await findUser(people.storage, user.id);
  if (!person) return reply.redirect('/console/sign-in', 303);
  const [sessions, unused] = await Promise.all([listUserSessions(people.storage, user.id), countUnusedRecoveryCodes(people.storage, user.id)]);
  return sendPage(reply, <AccountPage system={request.server.gateway.config.system} user={user} csrfToken={request.consoleCsrfToken} person={person} sessions={sessions} unusedRecoveryCodes={unused} message={message} />);
}

function registerPassword(app: FastifyInstance): void {
  app.get('/console/account/password', SIGNED_IN, async (request, reply) => {
    const person = await findUser(request.server.consoleServices.people.storage, request.consoleUser!.id);
    return sendPage(reply, <PasswordPage system={request.server.gateway.config.system} user={request.consoleUser!} csrfToken={request.consoleCsrfToken} mustChange={person?.passwordMustChange ?? false} />);
  });
  app.post('/console/account/password', SIGNED_IN, async (request, reply) => {
    const user = request.consoleUser!;
    const { people, signInFailures } = request.server.consoleServices;
    // Guessing the current password from a session left open counts like guessing it at sign-in.
    if (signInFailures.retryAfterMs(request.ip) > 0) {
      const page = <PasswordPage system={request.server.gateway.config.system} user={user} csrfToken={request.consoleCsrfToken} mustChange={false} errors={{ current: 'was tried wrongly too often: wait a few minutes' }} />;
      return sendPage(reply, page, 429);
    }
    const result = await changeOwnPassword(people, consoleActor(request), user.id, sessionCookie(request) ?? '', formField(request, 'current'), formField(request, 'password'));
    if (result.kind === 'changed') return showAccount(request, reply, 'Your password has changed. Your other sessions have ended.');
    if (result.field === 'current') await signInFailures.recordFailure(request.ip);
    const person = await findUser(people.storage, user.id);
    const page = <PasswordPage system={request.server.gateway.config.system} user={user} csrfToken={request.consoleCsrfToken} mustChange={person?.passwordMustChange ?? false} errors={{ [result.field]: result.problem }} />;
    return sendPage(reply, page, 400);
  });
}

/** /console/account: every signed-in person's own page. */
export function registerAccount(app: FastifyInstance): void {
  app.get('/console/account', SIGNED_IN, (request, reply) => showAccount(request, reply));
  registerPassword(app);
  app.post('/console/account/recovery-codes', SIGNED_IN, async (request, reply) => {
    const codes = await renewRecoveryCodes(request.server.consoleServices.people, consoleActor(request), request.consoleUser!.id);
    if (!codes) return reply.redirect('/console/account', 303);
    return sendPage(reply, <RecoveryCodesPage system={request.server.gateway.config.system} user={request.consoleUser} csrfToken={request.consoleCsrfToken} codes={codes} continueHref="/console/account" />);
  });
  app.post('/console/account/sign-out-everywhere', SIGNED_IN, async (request, reply) => {
    const user = request.consoleUser!;
    await endAllSessions(request.server.consoleServices.people, consoleActor(request), user);
    clearSessionCookie(request, reply);
    return reply.redirect('/console/sign-in', 303);
  });
  registerEnrollments(app);
}
