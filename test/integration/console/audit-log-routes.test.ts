/**
 * The audit log's page, export and verification for every role, as the permissions table says
 * (audit.view, audit.verify); a merchant's admin reads their merchant's entries only, in the page
 * and in the CSV.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { mayPerform } from '../../../src/domain/access/permissions.js';
import { ROLES, isOperatorRole, type Role } from '../../../src/domain/access/roles.js';
import { testDatabases } from '../../support/databases.js';
import { consoleGet, consolePost, signInAs, type ConsoleSession } from '../../support/console.js';
import { form, FORM_HEADERS, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../../support/test-app.js';
import type { CreatedEntity } from '../../../src/operations/admin/create-entity.js';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...FORM_HEADERS };

for (const database of testDatabases()) {
  describe(`the audit log for every role (${database.name})`, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    let other: CreatedEntity;
    const sessions = new Map<Role, ConsoleSession>();
    withAppAndMerchant(() => database.open(), {}, (app, created) => {
      t = app;
      merchant = created;
    });
    before(async () => {
      other = await t.createMerchant('Other shop');
      for (const entity of [merchant.entityId, other.entityId]) {
        await t.app.inject({ method: 'PUT', url: `/admin/entities/${entity}/connector-details`, headers: ADMIN, payload: form({ enabled: 'false' }) });
      }
      for (const role of ROLES) sessions.set(role, await signInAs(t, isOperatorRole(role) ? { role } : { role, merchantId: merchant.entityId }));
    });

    for (const role of ROLES) {
      it(`${role}: the page and the CSV ${mayPerform(role, 'audit.view') ? 'open' : 'are refused'}, verifying ${mayPerform(role, 'audit.verify') ? 'works' : 'is refused'}`, async () => {
        const session = sessions.get(role)!;
        const page = await consoleGet(t, session, '/console/audit');
        const csv = await consoleGet(t, session, '/console/audit/export.csv');
        const verify = await consolePost(t, session, '/console/audit/verify');
        const viewStatus = mayPerform(role, 'audit.view') ? 200 : 403;
        assert.equal(page.statusCode, viewStatus);
        assert.equal(csv.statusCode, viewStatus);
        assert.equal(verify.statusCode, mayPerform(role, 'audit.verify') ? 200 : 403);
        if (viewStatus === 200) {
          assert.equal(page.body.includes(other.entityId), isOperatorRole(role), "another merchant's change is an operator's to see");
          assert.equal(csv.body.includes(other.entityId), isOperatorRole(role));
          assert.ok(csv.body.includes(merchant.entityId));
        }
        if (verify.statusCode === 200) assert.match(verify.body, /The chain holds/);
      });
    }

    it('refuses verification without the CSRF token', async () => {
      const session = sessions.get('operator-admin')!;
      assert.equal((await consolePost(t, { ...session, csrf: 'not-the-token' }, '/console/audit/verify')).statusCode, 403);
    });
  });
}
