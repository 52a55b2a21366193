import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { isOperatorRole, type Role } from '../../src/domain/access/roles.js';
import { randomIds } from '../../src/domain/ids.js';
import { totpCode } from '../../src/domain/people/totp.js';
import { createUser } from '../../src/operations/people/create-user.js';
import type { PeopleDeps } from '../../src/operations/people/deps.js';
import { beginTotpEnrollment, confirmTotpEnrollment } from '../../src/operations/people/second-factor.js';
import { csrfTokenFor } from '../../src/console/sessions/csrf.js';
import { FORM_HEADERS, form, type TestApp } from './test-app.js';

/** A signed-in console session as a test holds it: the Cookie header, the CSRF token of its forms. */
export interface ConsoleSession {
  readonly cookie: string;
  readonly csrf: string;
  readonly userId: string;
}

export interface ConsolePerson {
  readonly userId: string;
  readonly email: string;
  readonly password: string;
  /** The authenticator's secret (base32) when the person enrolled one. */
  readonly totpSecret: string | undefined;
  /** The ten recovery codes made at the enrollment. */
  readonly recoveryCodes: readonly string[];
  readonly merchantId: string | null;
}

export const TEST_PASSWORD = 'correct horse battery staple';

export function peopleDeps(t: TestApp): PeopleDeps {
  return { storage: t.storage, clock: t.clock, ids: randomIds, vault: t.vault };
}

/**
 * Creates a console person through the operation (as the operator's tools would), with an
 * authenticator enrolled for operator roles (or when `secondFactor` asks). The enrollment uses the
 * code of the step before now, so a sign-in at the same instant still has a fresh step (replay).
 */
export async function createConsolePerson(
  t: TestApp,
  options: { role: Role; merchantId?: string; email?: string; password?: string; secondFactor?: boolean },
): Promise<ConsolePerson> {
  const merchantId = isOperatorRole(options.role) ? null : (options.merchantId ?? (await t.createMerchant()).entityId);
  const email = options.email ?? `${options.role}-${randomBytes(4).toString('hex')}@example.com`;
  const password = options.password ?? TEST_PASSWORD;
  const deps = peopleDeps(t);
  const created = await createUser(deps, { kind: 'system', reason: 'test' }, { role: 'operator-admin', merchantId: null }, { email, role: options.role, merchantId, password });
  assert.equal(created.kind, 'created', JSON.stringify(created));
  if (created.kind !== 'created') throw new Error('unreachable');
  let totpSecret: string | undefined;
  let recoveryCodes: readonly string[] = [];
  if (options.secondFactor ?? isOperatorRole(options.role)) {
    totpSecret = (await beginTotpEnrollment(deps, created.userId))!;
    const confirmed = await confirmTotpEnrollment(deps, created.userId, totpCode(totpSecret, t.clock.now().getTime() - 30_000));
    if (confirmed.kind !== 'enrolled') assert.fail('the authenticator was enrolled');
    recoveryCodes = confirmed.recoveryCodes;
  }
  return { userId: created.userId, email, password, totpSecret, recoveryCodes, merchantId };
}

/** The value of cookie `name` set by a response, if it set one. */
export function setCookie(response: LightMyRequestResponse, name: string): string | undefined {
  const headers = [response.headers['set-cookie'] ?? []].flat();
  for (const header of headers) {
    const [pair] = header.split(';');
    const at = pair!.indexOf('=');
    if (pair!.slice(0, at) === name) return pair!.slice(at + 1);
  }
  return undefined;
}

/** The `_csrf` value of the first form of a page. */
export function csrfOfPage(html: string): string {
  const match = /name="_csrf" value="([^"]*)"/.exec(html);
  assert.ok(match, 'the page has a form with a CSRF token');
  return match[1]!;
}

/** A visitor not signed in who opened the sign-in page: its cookie and the form's CSRF token. */
export async function visitSignIn(t: TestApp, remoteAddress?: string): Promise<{ cookie: string; csrf: string }> {
  const page = await t.app.inject({ method: 'GET', url: '/console/sign-in', ...(remoteAddress ? { remoteAddress } : {}) });
  return { cookie: `console-visitor=${setCookie(page, 'console-visitor')}`, csrf: csrfOfPage(page.body) };
}

/** POST /console/sign-in (the password step) as a visitor. */
export async function postPassword(t: TestApp, email: string, password: string, remoteAddress?: string): Promise<LightMyRequestResponse> {
  const visitor = await visitSignIn(t, remoteAddress);
  return t.app.inject({
    method: 'POST', url: '/console/sign-in', headers: { ...FORM_HEADERS, cookie: visitor.cookie }, ...(remoteAddress ? { remoteAddress } : {}),
    payload: form({ _csrf: visitor.csrf, email, password, next: '/console' }),
  });
}

/** POST /console/sign-in/code with a half-signed-in session's token. */
export function postCode(t: TestApp, token: string, code: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/console/sign-in/code', headers: { ...FORM_HEADERS, cookie: `console-session=${token}` }, payload: form({ _csrf: csrfTokenFor(token), code, next: '/console' }) });
}

/** Signs a person in through the real pages: GET and POST /console/sign-in, then the code if asked. */
export async function signInPerson(t: TestApp, person: ConsolePerson): Promise<ConsoleSession> {
  const posted = await postPassword(t, person.email, person.password);
  assert.equal(posted.statusCode, 303, posted.body);
  let token = setCookie(posted, 'console-session')!;
  if (String(posted.headers.location).startsWith('/console/sign-in/code')) {
    assert.ok(person.totpSecret, 'a person asked for a code has an authenticator');
    const code = await postCode(t, token, totpCode(person.totpSecret, t.clock.now().getTime()));
    assert.equal(code.statusCode, 303, code.body);
    token = setCookie(code, 'console-session')!;
  }
  return { cookie: `console-session=${token}`, csrf: csrfTokenFor(token), userId: person.userId };
}

/** Creates a person with `role` (in a new merchant unless one is given) and signs them in. */
export async function signInAs(t: TestApp, options: { role: Role; merchantId?: string; email?: string }): Promise<ConsoleSession> {
  return signInPerson(t, await createConsolePerson(t, options));
}

export function consoleGet(t: TestApp, session: Pick<ConsoleSession, 'cookie'>, url: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
}

/** Posts a console form with the session's CSRF token (a `_csrf` in fields overrides it). */
export function consolePost(t: TestApp, session: Pick<ConsoleSession, 'cookie' | 'csrf'>, url: string, fields: Record<string, string | string[]> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url, headers: { ...FORM_HEADERS, cookie: session.cookie }, payload: form({ _csrf: session.csrf, ...fields }) });
}
