/**
 * The payments search and export through the whole app with real console sessions (sign-in,
 * cookie): each role allowed or refused as PERMISSIONS says, and a merchant's person never sees
 * another merchant's payment in the page or the CSV.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mayPerform } from '../../../src/domain/access/permissions.js';
import { ROLES } from '../../../src/domain/access/roles.js';
import { consoleGet, signInAs } from '../../support/console.js';
import { testDatabases } from '../../support/databases.js';
import { hexId, insertPayments } from '../../support/payment-search.js';
import { withAppAndMerchant, type TestApp } from '../../support/test-app.js';

const OPERATOR = /^operator-/;

for (const database of testDatabases()) {
  describe(`console payments with sessions (${database.name})`, () => {
    let t: TestApp;
    let merchantId: string;
    withAppAndMerchant(() => database.open(), {}, (app, merchant) => {
      t = app;
      merchantId = merchant.entityId;
    });

    it('opens search and export to the roles PERMISSIONS names; a merchant sees only its own', async () => {
      const other = await t.createMerchant();
      await insertPayments(t.storage, [
        { name: 'session-own', entityId: merchantId, createdAt: new Date('2026-11-20T10:00:00Z'), bin: '455555', last4: '0001' },
        { name: 'session-other', entityId: other.entityId, createdAt: new Date('2026-11-20T11:00:00Z'), bin: '455555', last4: '0002' },
      ]);
      for (const role of ROLES) {
        const session = await signInAs(t, { role, merchantId });
        t.clock.advance(30_000); // a fresh TOTP step for the next operator
        const page = await consoleGet(t, session, '/console/payments?bin=455555');
        assert.equal(page.statusCode, mayPerform(role, 'payments.view') ? 200 : 403, `${role} search`);
        if (page.statusCode === 200) {
          assert.ok(page.body.includes(hexId('session-own')), `${role} finds its merchant's payment`);
          assert.equal(page.body.includes(hexId('session-other')), OPERATOR.test(role), `${role} and another merchant's payment`);
        }
        const csv = await consoleGet(t, session, '/console/payments/export.csv?bin=455555');
        assert.equal(csv.statusCode, mayPerform(role, 'payments.export') ? 200 : 403, `${role} export`);
        if (csv.statusCode === 200) {
          assert.ok(csv.body.includes(hexId('session-own')));
          assert.equal(csv.body.includes(hexId('session-other')), OPERATOR.test(role), `${role} export and another merchant's payment`);
        }
      }
    });

    it('escapes what the database holds, shows BIN and last four only', async () => {
      await insertPayments(t.storage, [{ name: 'session-markup', entityId: merchantId, createdAt: new Date('2026-11-21T10:00:00Z'), bin: '466666', last4: '1111', holder: '<b>Anna</b>' }]);
      const session = await signInAs(t, { role: 'finance', merchantId });
      const page = await consoleGet(t, session, '/console/payments?bin=466666');
      assert.ok(page.body.includes('&lt;b>Anna&lt;/b>'));
      assert.ok(!page.body.includes('<b>Anna</b>'));
      assert.ok(page.body.includes('466666…1111'));
    });

    it('answers a broken form with 400 and a message beside each field, keeping what was typed', async () => {
      const session = await signInAs(t, { role: 'finance', merchantId });
      const page = await consoleGet(t, session, '/console/payments?bin=41&amountFrom=1.234&holder=Zo%C3%AB');
      assert.equal(page.statusCode, 400);
      assert.match(page.body, /id="f-bin-error"[^>]*>the first 6 or 8 digits of the card</);
      assert.match(page.body, /id="f-amountFrom-error"[^>]*>an amount like 12.50/);
      assert.match(page.body, /aria-invalid="true"/);
      assert.ok(page.body.includes('value="Zoë"'));
      assert.equal((await consoleGet(t, session, '/console/payments/export.csv?bin=41')).statusCode, 400);
    });

    it('refuses a cursor of another search with 400, not a 500', async () => {
      const session = await signInAs(t, { role: 'support', merchantId });
      const page = await consoleGet(t, session, '/console/payments?cursor=garbage');
      assert.equal(page.statusCode, 400);
      assert.match(page.body, /another search/);
    });

    it('makes sortable headers and page links that keep the search; the CSV is a download', async () => {
      const session = await signInAs(t, { role: 'merchant-admin', merchantId });
      const page = await consoleGet(t, session, '/console/payments?bin=455555&sort=amount&order=asc');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /aria-sort="ascending"/);
      assert.ok(page.body.includes('href="/console/payments?bin=455555&amp;sort=amount&amp;order=desc"'));
      const csv = await consoleGet(t, session, '/console/payments/export.csv?bin=455555');
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      assert.match(String(csv.headers['content-disposition']), /^attachment; filename="payments-\d{8}-\d{6}\.csv"$/);
      assert.equal(csv.headers['cache-control'], 'no-store');
    });

    it('sends a visitor without a session to the sign-in page', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/console/payments/export.csv' });
      assert.equal(response.statusCode, 303);
      assert.match(String(response.headers.location), /^\/console\/sign-in\?next=/);
    });
  });
}
