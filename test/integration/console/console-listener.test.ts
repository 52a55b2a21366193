/** CONSOLE_LISTENER: the console on the public listener, on the admin listener only, or nowhere. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildAdminApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { testDatabases } from '../../support/databases.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

const [pglite] = testDatabases();

describe('CONSOLE_LISTENER', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(await pglite!.open(), { env: { ADMIN_PORT: '0', CONSOLE_LISTENER: 'admin' } });
  });
  after(async () => {
    await t.close();
    await t.storage.close();
  });

  it('admin: the console is on the admin listener only', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/console/sign-in' })).statusCode, 404);
    const admin = await buildAdminApp(t.app);
    try {
      assert.equal((await admin.inject({ method: 'GET', url: '/console/sign-in' })).statusCode, 200);
    } finally {
      await admin.close();
    }
  });

  it('needs ADMIN_PORT for admin, and knows public and off', () => {
    assert.throws(() => loadConfig({ CONSOLE_LISTENER: 'admin' }), /CONSOLE_LISTENER=admin needs ADMIN_PORT/);
    assert.equal(loadConfig({}).console.listener, 'public');
    assert.equal(loadConfig({ CONSOLE_LISTENER: 'off' }).console.listener, 'off');
    assert.throws(() => loadConfig({ CONSOLE_LISTENER: 'everywhere' }), /CONSOLE_LISTENER/);
  });
});
