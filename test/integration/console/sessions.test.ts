/**
 * Console sessions and sign-in security: CSRF on every change, session fixation, idle and absolute
 * expiry, lock-out per account and per address, recovery codes, sign-out everywhere.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../../support/databases.js';
import { withAppAndMerchant, FORM_HEADERS, form, type TestApp } from '../../support/test-app.js';
import { consoleGet, consolePost, createConsolePerson, postCode, postPassword, setCookie, signInAs, signInPerson, visitSignIn } from '../../support/console.js';

const SIGNED_OUT = '/console/sign-in?next=%2Fconsole%2Faccount';
const MINUTE_MS = 60_000;

for (const database of testDatabases()) {
  describe(`console sessions (${database.name})`, () => {
    let t: TestApp;
    withAppAndMerchant(() => database.open(), { env: { CONSOLE_SESSION_MAX_HOURS: '1', CONSOLE_SIGN_IN_FAILURES_PER_ADDRESS: '8' } }, (app) => {
      t = app;
    });

    it('refuses every console change without the session\'s CSRF token, or with another one', async () => {
      const session = await signInAs(t, { role: 'operator-admin' });
      const other = await createConsolePerson(t, { role: 'finance' });
      const posts = t.app.consoleRoutes.filter((route) => route.method === 'POST');
      assert.ok(posts.length >= 10, `${posts.length} console POST routes`);
      for (const route of posts) {
        const url = route.url.replace(':id', other.userId);
        const without = await t.app.inject({ method: 'POST', url, headers: { ...FORM_HEADERS, cookie: session.cookie }, payload: form({ role: 'support' }) });
        assert.equal(without.statusCode, 403, `${url} without a token`);
        const wrong = await consolePost(t, session, url, { _csrf: 'x'.repeat(43), role: 'support' });
        assert.equal(wrong.statusCode, 403, `${url} with a wrong token`);
      }
      assert.equal((await consoleGet(t, session, `/console/people/${other.userId}`)).body.includes('Finance'), true, 'nothing changed');
    });

    it('never keeps a session id the browser came with (fixation)', async () => {
      const person = await createConsolePerson(t, { role: 'support' });
      const visitor = await visitSignIn(t);
      const planted = 'planted-by-an-attacker-0123456789abcdefghijkl';
      const posted = await t.app.inject({
        method: 'POST', url: '/console/sign-in', headers: { ...FORM_HEADERS, cookie: `${visitor.cookie}; console-session=${planted}` },
        payload: form({ _csrf: visitor.csrf, email: person.email, password: person.password }),
      });
      assert.equal(posted.statusCode, 303);
      const issued = setCookie(posted, 'console-session');
      assert.ok(issued && issued !== planted);
      assert.equal((await consoleGet(t, { cookie: `console-session=${planted}` }, '/console/account')).headers.location, SIGNED_OUT);
    });

    it('sets the session cookie HttpOnly, SameSite=Lax, scoped to /console without TLS', async () => {
      const person = await createConsolePerson(t, { role: 'support' });
      const posted = await postPassword(t, person.email, person.password);
      const header = [posted.headers['set-cookie']].flat().find((value) => String(value).startsWith('console-session='))!;
      assert.match(header, /; HttpOnly/);
      assert.match(header, /; SameSite=Lax/);
      assert.match(header, /; Path=\/console/);
      assert.doesNotMatch(header, /Expires|Max-Age/, 'a browser session cookie: the server ends the session');
      assert.equal(posted.headers['cache-control'], 'no-store');
    });

    it('ends a session unused for 30 minutes, and keeps one used within them', async () => {
      const session = await signInAs(t, { role: 'read-only' });
      t.clock.advance(29 * MINUTE_MS);
      assert.equal((await consoleGet(t, session, '/console/account')).statusCode, 200);
      t.clock.advance(29 * MINUTE_MS);
      assert.equal((await consoleGet(t, session, '/console/account')).statusCode, 200, 'used 29 minutes ago');
      t.clock.advance(31 * MINUTE_MS);
      const after = await consoleGet(t, session, '/console/account');
      assert.equal(after.headers.location, SIGNED_OUT);
    });

    it('ends a session CONSOLE_SESSION_MAX_HOURS after sign-in however much it is used', async () => {
      const session = await signInAs(t, { role: 'read-only' });
      for (let minutes = 20; minutes < 60; minutes += 20) {
        t.clock.advance(20 * MINUTE_MS);
        assert.equal((await consoleGet(t, session, '/console/account')).statusCode, 200, `${minutes} minutes in`);
      }
      t.clock.advance(20 * MINUTE_MS);
      assert.equal((await consoleGet(t, session, '/console/account')).headers.location, SIGNED_OUT);
    });

    it('locks an account after 5 wrong passwords for 15 minutes, then twice as long', async () => {
      const person = await createConsolePerson(t, { role: 'finance' });
      const tryWrong = async (times: number) => {
        for (let i = 0; i < times; i++) assert.equal((await postPassword(t, person.email, 'a wrong password, long', `10.1.0.${i + 1}`)).statusCode, 401);
      };
      await tryWrong(5);
      const locked = await postPassword(t, person.email, person.password, '10.1.1.1');
      assert.equal(locked.statusCode, 429, 'locked: even the right password waits');
      assert.equal(locked.headers['retry-after'], '900');
      t.clock.advance(15 * MINUTE_MS);
      await tryWrong(5);
      t.clock.advance(15 * MINUTE_MS);
      assert.equal((await postPassword(t, person.email, person.password, '10.1.1.2')).statusCode, 429, 'the second lock lasts 30 minutes');
      t.clock.advance(15 * MINUTE_MS);
      assert.equal((await postPassword(t, person.email, person.password, '10.1.1.3')).statusCode, 303);
    });

    it('makes an address that failed more than CONSOLE_SIGN_IN_FAILURES_PER_ADDRESS times wait, whatever the account', async () => {
      const person = await createConsolePerson(t, { role: 'finance' });
      for (let i = 0; i < 9; i++) assert.equal((await postPassword(t, `nobody-${i}@example.com`, 'a wrong password, long', '10.2.0.1')).statusCode, 401);
      const blocked = await postPassword(t, person.email, person.password, '10.2.0.1');
      assert.equal(blocked.statusCode, 429);
      assert.ok(Number(blocked.headers['retry-after']) > 0);
      assert.equal((await postPassword(t, person.email, person.password, '10.2.0.2')).statusCode, 303, 'another address signs in');
    });

    it('accepts each recovery code once instead of the app\'s code', async () => {
      const person = await createConsolePerson(t, { role: 'operator-support' });
      const first = setCookie(await postPassword(t, person.email, person.password), 'console-session')!;
      const used = await postCode(t, first, person.recoveryCodes[0]!.toUpperCase());
      assert.equal(used.statusCode, 303);
      const second = setCookie(await postPassword(t, person.email, person.password), 'console-session')!;
      assert.equal((await postCode(t, second, person.recoveryCodes[0]!)).statusCode, 401, 'used already');
      assert.equal((await postCode(t, second, person.recoveryCodes[1]!)).statusCode, 303);
    });

    it('signs out everywhere: every session of the person ends', async () => {
      const person = await createConsolePerson(t, { role: 'developer' });
      const one = await signInPerson(t, person);
      const two = await signInPerson(t, person);
      const other = await signInAs(t, { role: 'developer' });
      const out = await consolePost(t, one, '/console/account/sign-out-everywhere');
      assert.equal(out.statusCode, 303);
      assert.equal((await consoleGet(t, one, '/console/account')).headers.location, SIGNED_OUT);
      assert.equal((await consoleGet(t, two, '/console/account')).headers.location, SIGNED_OUT);
      assert.equal((await consoleGet(t, other, '/console/account')).statusCode, 200, 'another person stays signed in');
    });
  });
}
