/**
 * The console's shell: nobody signed in is sent to the sign-in page (pages) or refused (changes);
 * every console answer carries the console's strict CSP; a route that declares no access is closed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../../support/databases.js';
import { withAppAndMerchant, type TestApp } from '../../support/test-app.js';

for (const database of testDatabases()) {
  describe(`the console shell (${database.name})`, () => {
    let t: TestApp;
    withAppAndMerchant(() => database.open(), {}, (app) => {
      t = app;
    });

    it('sends a visitor who is not signed in to the sign-in page, keeping where they were going', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/console' });
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, '/console/sign-in?next=%2Fconsole');
      assert.match(String(response.headers['content-security-policy']), /script-src 'self'/);
      assert.equal(response.headers['x-frame-options'], 'DENY');
    });

    it('serves its stylesheet and script from itself', async () => {
      for (const name of ['console.css', 'console.js']) {
        const response = await t.app.inject({ method: 'GET', url: `/console/assets/${name}` });
        assert.equal(response.statusCode, 200, name);
      }
      assert.equal((await t.app.inject({ method: 'GET', url: '/console/assets/nothing.js' })).statusCode, 404);
    });
  });
}
