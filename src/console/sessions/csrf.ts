import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The CSRF token of a form (the synchroniser-token pattern without storage): derived from the
 * cookie it protects, the session's id or, before sign-in, the visitor's random value. A page
 * from another site cannot read the HttpOnly cookie, so it cannot make the token; the token
 * cannot give the session id back (an HMAC); and it changes with the session at every sign-in.
 */
export function csrfTokenFor(cookieValue: string): string {
  return createHmac('sha256', cookieValue).update('console-csrf').digest('base64url');
}

export function csrfTokenMatches(cookieValue: string | undefined, submitted: unknown): boolean {
  if (cookieValue === undefined || typeof submitted !== 'string') return false;
  const expected = Buffer.from(csrfTokenFor(cookieValue));
  const given = Buffer.from(submitted);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
