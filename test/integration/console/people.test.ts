/**
 * The people pages: who may see and manage whom (docs/console.md, "People and access"), audited.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../../support/databases.js';
import { withAppAndMerchant, type TestApp } from '../../support/test-app.js';
import { consoleGet, consolePost, createConsolePerson, postPassword, setCookie, signInAs, signInPerson, type ConsoleSession } from '../../support/console.js';
import { csrfTokenFor } from '../../../src/console/sessions/csrf.js';
import { totpCode } from '../../../src/domain/people/totp.js';
import { listAuditEntries } from '../../../src/storage/repositories/audit-log.js';
import { findUser, findUserByEmail } from '../../../src/storage/repositories/console-users.js';
import { verifyAuditChain } from '../../../src/operations/audit/verify-audit-chain.js';
import { mayPerform } from '../../../src/domain/access/permissions.js';
import { ROLES } from '../../../src/domain/access/roles.js';

for (const database of testDatabases()) {
  describe(`console people (${database.name})`, () => {
    let t: TestApp;
    let merchantId: string;
    withAppAndMerchant(() => database.open(), {}, (app, merchant) => {
      t = app;
      merchantId = merchant.entityId;
    });

    async function lastAudit(): Promise<{ action: string; actor: string; address: string | null; after: unknown }> {
      const [entry] = await listAuditEntries(t.storage, {}, undefined, 1);
      return entry!;
    }

    it('opens each people page to the roles PERMISSIONS names, and no other (every role)', async () => {
      const pages = [['/console/people', 'users.view'], ['/console/people/new', 'users.manage']] as const;
      for (const role of ROLES) {
        const session = await signInAs(t, { role, merchantId });
        t.clock.advance(30_000); // a fresh TOTP step for the next operator
        for (const [url, action] of pages) {
          const response = await consoleGet(t, session, url);
          assert.equal(response.statusCode, mayPerform(role, action) ? 200 : 403, `${role} GET ${url}`);
        }
        assert.equal((await consoleGet(t, session, '/console/account')).statusCode, 200, `${role} has an account page`);
        const security = await consolePost(t, session, '/console/people/security', { merchantId, required: 'false' });
        assert.equal(security.statusCode, mayPerform(role, 'merchant-security.manage') ? 200 : 403, `${role} POST security`);
      }
    });

    it('lets an operator admin add a merchant person, who changes the one-time password at the first sign-in', async () => {
      const admin = await signInAs(t, { role: 'operator-admin' });
      const added = await consolePost(t, admin, '/console/people/new', { email: 'clerk@shop.example', role: 'finance', merchantId });
      assert.equal(added.statusCode, 201, added.body);
      const password = /<code class="secret">([^<]+)<\/code>/.exec(added.body)![1]!;
      const audit = await lastAudit();
      assert.equal(audit.action, 'users.create');
      assert.equal(audit.address, '127.0.0.1');
      const posted = await postPassword(t, 'CLERK@shop.example', password);
      assert.equal(posted.statusCode, 303);
      const token = setCookie(posted, 'console-session')!;
      const clerk: ConsoleSession = { cookie: `console-session=${token}`, csrf: csrfTokenFor(token), userId: '' };
      assert.equal((await consoleGet(t, clerk, '/console/people')).headers.location, '/console/account/password', 'first the password');
      const changed = await consolePost(t, clerk, '/console/account/password', { current: password, password: 'my own long passphrase' });
      assert.equal(changed.statusCode, 200);
      assert.equal((await consoleGet(t, clerk, '/console/account')).statusCode, 200);
    });

    it('lets a merchant admin add people to its own merchant only, never an operator', async () => {
      const admin = await signInAs(t, { role: 'merchant-admin', merchantId });
      const other = await t.createMerchant('Other shop');
      const operator = await consolePost(t, admin, '/console/people/new', { email: 'op@shop.example', role: 'operator-admin' });
      assert.equal(operator.statusCode, 403);
      const elsewhere = await consolePost(t, admin, '/console/people/new', { email: 'dev@shop.example', role: 'developer', merchantId: other.entityId });
      assert.equal(elsewhere.statusCode, 201);
      assert.equal((await findUserByEmail(t.storage, 'dev@shop.example'))?.merchantId, merchantId, 'the merchant field is not theirs to choose');
      assert.equal(await findUserByEmail(t.storage, 'op@shop.example'), undefined);
    });

    it('hides another merchant\'s people from a merchant admin (404), list and actions alike', async () => {
      const admin = await signInAs(t, { role: 'merchant-admin', merchantId });
      const stranger = await createConsolePerson(t, { role: 'support' });
      assert.equal((await consoleGet(t, admin, `/console/people/${stranger.userId}`)).statusCode, 404);
      assert.equal((await consolePost(t, admin, `/console/people/${stranger.userId}/disable`)).statusCode, 404);
      assert.equal((await findUser(t.storage, stranger.userId))?.disabledAt, null);
      const list = await consoleGet(t, admin, '/console/people');
      assert.equal(list.statusCode, 200);
      assert.ok(!list.body.includes(stranger.email));
    });

    it('lets an operator read-only see people but not manage them', async () => {
      const viewer = await signInAs(t, { role: 'operator-read-only' });
      const person = await createConsolePerson(t, { role: 'support', merchantId });
      assert.equal((await consoleGet(t, viewer, '/console/people')).statusCode, 200);
      assert.equal((await consoleGet(t, viewer, '/console/people/new')).statusCode, 403);
      assert.equal((await consolePost(t, viewer, '/console/people/new', { email: 'x@shop.example', role: 'support', merchantId })).statusCode, 403);
      assert.equal((await consolePost(t, viewer, `/console/people/${person.userId}/role`, { role: 'merchant-admin' })).statusCode, 403);
      assert.equal((await findUser(t.storage, person.userId))?.role, 'support');
    });

    it('changes a role, disables (ending the sessions) and resets a second factor, each audited', async () => {
      const admin = await signInAs(t, { role: 'merchant-admin', merchantId });
      const person = await createConsolePerson(t, { role: 'support', merchantId, secondFactor: true });
      t.clock.advance(30_000);
      const theirs = await signInPerson(t, person);
      assert.equal((await consolePost(t, admin, `/console/people/${person.userId}/role`, { role: 'operator-admin' })).statusCode, 403, 'not an operator role');
      assert.equal((await consolePost(t, admin, `/console/people/${person.userId}/role`, { role: 'finance' })).statusCode, 200);
      assert.equal((await lastAudit()).action, 'users.change-role');
      assert.equal((await consolePost(t, admin, `/console/people/${person.userId}/reset-second-factor`)).statusCode, 200);
      assert.equal((await findUser(t.storage, person.userId))?.totpEnabledAt, null);
      assert.equal((await consolePost(t, admin, `/console/people/${person.userId}/disable`)).statusCode, 200);
      assert.equal((await lastAudit()).action, 'users.disable');
      assert.equal((await consoleGet(t, theirs, '/console/account')).statusCode, 303, 'signed out');
      assert.equal((await postPassword(t, person.email, person.password)).statusCode, 401, 'a disabled person cannot sign in');
      assert.equal((await consolePost(t, admin, `/console/people/${admin.userId}/disable`)).statusCode, 403, 'not oneself');
      assert.equal((await verifyAuditChain(t.storage)).ok, true);
    });

    it('makes a merchant\'s people enrol an authenticator once the merchant requires it', async () => {
      const admin = await signInAs(t, { role: 'merchant-admin', merchantId });
      const person = await createConsolePerson(t, { role: 'finance', merchantId });
      assert.equal((await consolePost(t, admin, '/console/people/security', { required: 'true' })).statusCode, 200);
      const posted = await postPassword(t, person.email, person.password);
      const token = setCookie(posted, 'console-session')!;
      const session = { cookie: `console-session=${token}`, csrf: csrfTokenFor(token) };
      const code = await consoleGet(t, session, String(posted.headers.location));
      assert.match(String(code.headers.location), /^\/console\/sign-in\/enroll/);
      const enroll = await consoleGet(t, session, String(code.headers.location));
      assert.equal(enroll.statusCode, 200);
      assert.match(enroll.body, /data:image\/svg\+xml;base64,/);
      const secret = /<code class="secret">([^<]+)<\/code>/.exec(enroll.body)![1]!.replace(/ /g, '');
      const confirmed = await consolePost(t, session, '/console/sign-in/enroll', { code: totpCode(secret, t.clock.now().getTime()) });
      assert.equal(confirmed.statusCode, 200);
      assert.equal([...confirmed.body.matchAll(/<li><code>/g)].length, 10, 'ten recovery codes');
      const full = setCookie(confirmed, 'console-session')!;
      assert.notEqual(full, token);
      assert.equal((await consoleGet(t, { cookie: `console-session=${full}` }, '/console/account')).statusCode, 200);
    });
  });
}
