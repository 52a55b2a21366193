/**
 * Signing in to the console: password, second factor, sessions, CSRF (docs/console.md, "Signing in").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../../support/databases.js';
import { withAppAndMerchant, FORM_HEADERS, form, type TestApp } from '../../support/test-app.js';
import { consoleGet, consolePost, createConsolePerson, csrfOfPage, setCookie, signInAs, signInPerson } from '../../support/console.js';
import { totpCode } from '../../../src/domain/people/totp.js';
import { csrfTokenFor } from '../../../src/console/sessions/csrf.js';

for (const database of testDatabases()) {
  describe(`console sign-in (${database.name})`, () => {
    let t: TestApp;
    withAppAndMerchant(() => database.open(), {}, (app) => {
      t = app;
    });

    async function visitor(): Promise<{ cookie: string; csrf: string }> {
      const page = await t.app.inject({ method: 'GET', url: '/console/sign-in' });
      return { cookie: `console-visitor=${setCookie(page, 'console-visitor')}`, csrf: csrfOfPage(page.body) };
    }

    it('signs a merchant admin in with the password alone and opens the console', async () => {
      const session = await signInAs(t, { role: 'merchant-admin' });
      const home = await consoleGet(t, session, '/console');
      assert.equal(home.statusCode, 303);
      assert.notEqual(home.headers.location, '/console/sign-in?next=%2Fconsole');
    });

    it('asks an operator for the code and gives a new session id after it', async () => {
      const person = await createConsolePerson(t, { role: 'operator-support' });
      const page = await visitor();
      const posted = await t.app.inject({ method: 'POST', url: '/console/sign-in', headers: { ...FORM_HEADERS, cookie: page.cookie }, payload: form({ _csrf: page.csrf, email: person.email, password: person.password }) });
      assert.equal(posted.statusCode, 303);
      assert.match(String(posted.headers.location), /^\/console\/sign-in\/code/);
      const halfway = setCookie(posted, 'console-session')!;
      // Half signed in: no page opens yet.
      assert.equal((await consoleGet(t, { cookie: `console-session=${halfway}` }, '/console')).statusCode, 303);
      const session = await signInPerson(t, person);
      assert.notEqual(session.cookie, `console-session=${halfway}`);
    });

    it('refuses a wrong password with 401 and the same words as an unknown address', async () => {
      const person = await createConsolePerson(t, { role: 'finance' });
      const page = await visitor();
      const wrong = await t.app.inject({ method: 'POST', url: '/console/sign-in', headers: { ...FORM_HEADERS, cookie: page.cookie }, payload: form({ _csrf: page.csrf, email: person.email, password: 'not the password at all' }) });
      const unknown = await t.app.inject({ method: 'POST', url: '/console/sign-in', headers: { ...FORM_HEADERS, cookie: page.cookie }, payload: form({ _csrf: page.csrf, email: 'nobody@example.com', password: 'not the password at all' }) });
      assert.equal(wrong.statusCode, 401);
      assert.equal(unknown.statusCode, 401);
      assert.equal(setCookie(wrong, 'console-session'), undefined);
      assert.match(wrong.body, /e-mail address or the password is wrong/);
    });

    it('refuses a sign-in form without the visitor\'s CSRF token', async () => {
      const person = await createConsolePerson(t, { role: 'finance' });
      const page = await visitor();
      const forged = await t.app.inject({ method: 'POST', url: '/console/sign-in', headers: { ...FORM_HEADERS, cookie: page.cookie }, payload: form({ email: person.email, password: person.password }) });
      assert.equal(forged.statusCode, 403);
    });

    it('ends the session at sign-out', async () => {
      const session = await signInAs(t, { role: 'developer' });
      const out = await consolePost(t, session, '/console/sign-out');
      assert.equal(out.statusCode, 303);
      assert.equal((await consoleGet(t, session, '/console')).headers.location, '/console/sign-in?next=%2Fconsole');
    });

    it('refuses a code used once already (replay)', async () => {
      const person = await createConsolePerson(t, { role: 'operator-admin' });
      await signInPerson(t, person);
      const page = await visitor();
      const posted = await t.app.inject({ method: 'POST', url: '/console/sign-in', headers: { ...FORM_HEADERS, cookie: page.cookie }, payload: form({ _csrf: page.csrf, email: person.email, password: person.password }) });
      const token = setCookie(posted, 'console-session')!;
      const replay = await t.app.inject({
        method: 'POST', url: '/console/sign-in/code', headers: { ...FORM_HEADERS, cookie: `console-session=${token}` },
        payload: form({ _csrf: csrfTokenFor(token), code: totpCode(person.totpSecret!, t.clock.now().getTime()) }),
      });
      assert.equal(replay.statusCode, 401);
      assert.match(replay.body, /used already/);
    });
  });
}
