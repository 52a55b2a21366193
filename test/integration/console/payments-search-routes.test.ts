/**
 * GET /console/payments and /console/payments/export.csv through the console's own plugin and
 * access check, each role allowed or refused. The person is set by a stand-in for the session
 * hook (the sessions are another area's): what is tested here is the page, the export and the
 * permission each declares.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { parse } from 'csv-parse/sync';
import { mayPerform } from '../../../src/domain/access/permissions.js';
import { ROLES, type Role } from '../../../src/domain/access/roles.js';
import { registerPaymentsSearch } from '../../../src/console/areas/payments-search.js';
import type { Storage } from '../../../src/storage/port.js';
import { consoleStandIn } from '../../support/console-stand-in.js';
import { testDatabases } from '../../support/databases.js';
import { hexId, insertEntity, insertPayments } from '../../support/payment-search.js';

const merchantA = hexId('route merchant A');
const a1 = hexId('route channel a1');
const merchantB = hexId('route merchant B');
const b1 = hexId('route channel b1');
const OPERATOR_ROLES = new Set<Role>(['operator-admin', 'operator-support', 'operator-read-only']);

for (const database of testDatabases()) {
  describe(`console payments pages (${database.name})`, () => {
    let storage: Storage;
    let app: FastifyInstance;
    before(async () => {
      storage = await database.open();
      await insertEntity(storage, merchantA, 'merchant', null);
      await insertEntity(storage, a1, 'channel', merchantA);
      await insertEntity(storage, merchantB, 'merchant', null);
      await insertEntity(storage, b1, 'channel', merchantB);
      await insertPayments(storage, [
        { name: 'route-a', entityId: a1, createdAt: new Date('2026-11-20T10:00:00Z'), bin: '411111', last4: '1111', holder: '<b>Anna</b>' },
        { name: 'route-b', entityId: b1, createdAt: new Date('2026-11-21T10:00:00Z'), bin: '411111', last4: '1111', holder: 'Bert' },
      ]);
      app = await consoleStandIn(storage, [registerPaymentsSearch], merchantA);
    });
    after(async () => {
      await app.close();
      await storage.close();
    });

    for (const role of ROLES) {
      it(`${role}: search ${mayPerform(role, 'payments.view') ? 'allowed' : 'refused'}, export ${mayPerform(role, 'payments.export') ? 'allowed' : 'refused'}`, async () => {
        const page = await app.inject({ method: 'GET', url: '/console/payments?bin=411111', headers: { 'x-test-role': role } });
        assert.equal(page.statusCode, mayPerform(role, 'payments.view') ? 200 : 403);
        if (page.statusCode === 200) {
          assert.ok(page.body.includes(`/console/payments/${hexId('route-a')}`));
          assert.equal(page.body.includes(hexId('route-b')), OPERATOR_ROLES.has(role), 'another merchant\'s payment only for operators');
          assert.equal(page.body.includes('export.csv'), mayPerform(role, 'payments.export'));
        }
        const csv = await app.inject({ method: 'GET', url: '/console/payments/export.csv?bin=411111', headers: { 'x-test-role': role } });
        assert.equal(csv.statusCode, mayPerform(role, 'payments.export') ? 200 : 403);
        if (csv.statusCode === 200) {
          assert.match(String(csv.headers['content-type']), /^text\/csv/);
          assert.match(String(csv.headers['content-disposition']), /^attachment; filename="payments-20261127-090000\.csv"$/);
          const ids = (parse(csv.body, { columns: true }) as Record<string, string>[]).map((r) => r['id']);
          assert.deepEqual(ids.sort(), (OPERATOR_ROLES.has(role) ? [hexId('route-a'), hexId('route-b')] : [hexId('route-a')]).sort());
        }
      });
    }

    it('sends a visitor who is not signed in to the sign-in page', async () => {
      const response = await app.inject({ method: 'GET', url: '/console/payments?bin=411111' });
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, '/console/sign-in?next=%2Fconsole%2Fpayments%3Fbin%3D411111');
    });

    it('escapes what the database holds, shows BIN and last four only', async () => {
      const page = await app.inject({ method: 'GET', url: '/console/payments', headers: { 'x-test-role': 'finance' } });
      assert.ok(page.body.includes('&lt;b>Anna&lt;/b>'));
      assert.ok(!page.body.includes('<b>Anna</b>'));
      assert.ok(page.body.includes('411111…1111'));
    });

    it('answers a broken form with 400 and a message beside each field, keeping what was typed', async () => {
      const page = await app.inject({ method: 'GET', url: '/console/payments?bin=41&amountFrom=1.234&holder=Zo%C3%AB', headers: { 'x-test-role': 'support' } });
      assert.equal(page.statusCode, 400);
      assert.match(page.body, /id="f-bin-error"[^>]*>the first 6 or 8 digits of the card</);
      assert.match(page.body, /id="f-amountFrom-error"[^>]*>an amount like 12.50/);
      assert.match(page.body, /aria-invalid="true"/);
      assert.ok(page.body.includes('value="Zoë"'));
      const csv = await app.inject({ method: 'GET', url: '/console/payments/export.csv?bin=41', headers: { 'x-test-role': 'finance' } });
      assert.equal(csv.statusCode, 400);
    });

    it('refuses a cursor of another search with 400, not a 500', async () => {
      const page = await app.inject({ method: 'GET', url: '/console/payments?cursor=garbage', headers: { 'x-test-role': 'support' } });
      assert.equal(page.statusCode, 400);
      assert.match(page.body, /another search/);
    });

    it('makes sortable headers and page links that keep the search', async () => {
      const page = await app.inject({ method: 'GET', url: '/console/payments?bin=411111&sort=amount&order=asc', headers: { 'x-test-role': 'operator-admin' } });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /aria-sort="ascending"/);
      assert.ok(page.body.includes('href="/console/payments?bin=411111&amp;sort=amount&amp;order=desc"'));
    });
  });
}
