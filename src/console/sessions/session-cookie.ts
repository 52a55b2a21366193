import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';

/**
 * The console's cookies. Over TLS they carry the `__Host-` prefix, which the browser accepts only
 * with Secure, Path=/ and no Domain: no plain-HTTP page and no sibling sub-domain can set or
 * overwrite them (the attack that would plant a session, fixation by cookie injection). The prefix
 * forces Path=/, which costs nothing: a path never was a security boundary within one origin.
 * Without TLS (the test system on localhost) the names lose the prefix and the cookies are scoped
 * to /console. Always HttpOnly (no script reads them) and SameSite=Lax: a link from an e-mail to a
 * payment opens signed in, while another site's form posting here arrives without the cookie
 * (Strict would drop the cookie on that link too); the CSRF token guards the rest.
 */
export function cookieOptions(request: FastifyRequest): CookieSerializeOptions {
  const secure = request.protocol === 'https';
  return { httpOnly: true, sameSite: 'lax', secure, path: secure ? '/' : '/console' };
}

function names(request: FastifyRequest): { session: string; visitor: string } {
  return request.protocol === 'https'
    ? { session: '__Host-console-session', visitor: '__Host-console-visitor' }
    : { session: 'console-session', visitor: 'console-visitor' };
}

export function sessionCookie(request: FastifyRequest): string | undefined {
  return request.cookies[names(request).session] || undefined;
}

/** A random value of a visitor not signed in, to which the sign-in form's CSRF token is bound. */
export function visitorCookie(request: FastifyRequest): string | undefined {
  return request.cookies[names(request).visitor] || undefined;
}

/** The session cookie lives as long as the browser: the server ends the session (idle and absolute limits). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(names(request).session, token, cookieOptions(request));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(names(request).session, cookieOptions(request));
}

export function setVisitorCookie(request: FastifyRequest, reply: FastifyReply, value: string): void {
  reply.setCookie(names(request).visitor, value, cookieOptions(request));
}
