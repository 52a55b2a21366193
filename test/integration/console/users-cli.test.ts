/**
 * `gateway users create-operator`: straight into the database (no gateway holds it), and through
 * the admin API (what the command does while a gateway holds the embedded database); audited.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runUsersCommand } from '../../../src/cli/user-commands.js';
import { UsageError } from '../../../src/cli/usage.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { GatewayError } from '../../../src/results/gateway-error.js';
import { createPgliteStorage } from '../../../src/storage/pglite-storage.js';
import { listAuditEntries } from '../../../src/storage/repositories/audit-log.js';
import { findUserByEmail } from '../../../src/storage/repositories/console-users.js';
import { testDatabases } from '../../support/databases.js';
import { bearer, form, FORM_HEADERS, json, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../../support/test-app.js';
import { postPassword } from '../../support/console.js';

describe('users create-operator (command line, direct)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-users-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  const run = (options: Record<string, string | boolean>, stdin = '') => runUsersCommand(config, 'users create-operator', options, { env: {}, readSecret: async () => stdin });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates the first operator with a one-time password, audited as the command line', async () => {
    const created = await run({ email: 'Ops@Example.com' });
    assert.equal(created.role, 'operator-admin');
    assert.match(created.oneTimePassword ?? '', /^[\w-]{20}$/);
    await assert.rejects(run({ email: 'ops@example.com' }), (e: unknown) => e instanceof GatewayError && e.parameterErrors?.[0]?.name === 'email');
    await assert.rejects(run({ email: 'support@example.com', role: 'finance' }), GatewayError);
    await assert.rejects(run({}), UsageError);
    const withPassword = await run({ email: 'ro@example.com', role: 'operator-read-only', 'password-stdin': true }, 'a long chosen passphrase\n');
    assert.equal(withPassword.oneTimePassword, undefined);
    const storage = await createPgliteStorage(join(dataDir, 'pglite'));
    try {
      const user = await findUserByEmail(storage, 'ops@example.com');
      assert.equal(user?.passwordMustChange, true);
      const [entry] = await listAuditEntries(storage, { action: 'users.create' }, undefined, 1);
      assert.equal(entry?.actorKind, 'cli');
    } finally {
      await storage.close();
    }
  });
});

for (const database of testDatabases()) {
  describe(`POST /admin/console-users (${database.name})`, () => {
    let t: TestApp;
    withAppAndMerchant(() => database.open(), {}, (app) => {
      t = app;
    });

    it('creates an operator who signs in and is asked for the authenticator set-up; the audit names the shell user', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/admin/console-users', headers: { ...FORM_HEADERS, ...bearer(TEST_ADMIN_TOKEN) }, payload: form({ email: 'first@example.com', cliUser: 'root', cliHost: 'gw1' }) });
      assert.equal(response.statusCode, 201, response.body);
      const body = json(response);
      const signIn = await postPassword(t, 'first@example.com', body['oneTimePassword']);
      assert.equal(signIn.statusCode, 303);
      assert.match(String(signIn.headers.location), /^\/console\/sign-in\/code/);
      const [entry] = await listAuditEntries(t.storage, { action: 'users.create' }, undefined, 1);
      assert.equal(entry?.actor, 'root@gw1 (command line)');
      const refused = await t.app.inject({ method: 'POST', url: '/admin/console-users', headers: { ...FORM_HEADERS, ...bearer(TEST_ADMIN_TOKEN) }, payload: form({ email: 'x@example.com', role: 'merchant-admin' }) });
      assert.equal(refused.statusCode, 400);
      const anonymous = await t.app.inject({ method: 'POST', url: '/admin/console-users', headers: FORM_HEADERS, payload: form({ email: 'y@example.com' }) });
      assert.equal(anonymous.statusCode, 401);
    });
  });
}
