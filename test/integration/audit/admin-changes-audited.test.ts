/**
 * Every change through the admin API lands in the audit log in the change's own transaction: who
 * (the admin token, from the request's address), what, on what, before and after; a card number
 * blacklisted by an operator is in it only as the list shows it; a refused change leaves no entry;
 * the chain verifies through GET /admin/audit/verify.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listAuditEntries } from '../../../src/storage/repositories/audit-log.js';
import { testDatabases } from '../../support/databases.js';
import { form, FORM_HEADERS, json, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../../support/test-app.js';
import type { CreatedEntity } from '../../../src/operations/admin/create-entity.js';

const text = (value: unknown) => JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner));
const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...FORM_HEADERS };

for (const database of testDatabases()) {
  describe(`admin API changes in the audit log (${database.name})`, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    withAppAndMerchant(() => database.open(), {}, (app, created) => {
      t = app;
      merchant = created;
    });
    const admin = (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, fields: Record<string, string> = {}) =>
      t.app.inject({ method, url, headers: ADMIN, ...(method === 'GET' ? {} : { payload: form(fields) }), remoteAddress: '198.51.100.23' });

    it('records a setting with its before and after, a token and a route, as the admin token from its address', async () => {
      assert.equal((await admin('PUT', `/admin/entities/${merchant.entityId}/connector-details`, { enabled: 'false' })).statusCode, 200);
      const token = json(await admin('POST', '/admin/tokens', { entity: merchant.entityId }));
      assert.equal((await admin('DELETE', `/admin/tokens/${token['tokenId']}`)).statusCode, 200);
      const route = await admin('POST', '/admin/routes', { connector: 'simulator', entity: merchant.entityId, brand: 'VISA', currency: 'EUR' });
      assert.equal(route.statusCode, 201);
      const entries = await listAuditEntries(t.storage, { merchantId: merchant.entityId }, undefined, 10);
      assert.deepEqual(entries.map((e) => e.action).reverse(), ['entities.connector-details', 'credentials.create', 'credentials.revoke', 'routes.create']);
      const setting = entries.at(-1)!;
      assert.equal(setting.actor, 'admin API token');
      assert.equal(setting.address, '198.51.100.23');
      assert.equal((setting.before as Record<string, unknown>)['show_connector_details'], true);
      assert.equal((setting.after as Record<string, unknown>)['show_connector_details'], false);
      assert.ok(!text(entries).includes(String(token['accessToken'])), 'the token itself is never in the log');
    });

    it('keeps a blacklisted card as BIN and last four, and records nothing for a refused change', async () => {
      const before = (await listAuditEntries(t.storage, {}, undefined, 100)).length;
      assert.equal((await admin('PUT', `/admin/entities/${merchant.entityId}/unknown-parameters`, { mode: 'sometimes' })).statusCode, 400);
      assert.equal((await listAuditEntries(t.storage, {}, undefined, 100)).length, before);
      const listed = await admin('POST', `/admin/entities/${merchant.entityId}/risk/lists/black`, { kind: 'card', value: '4111111111111111', reason: 'stolen' });
      assert.equal(listed.statusCode, 200);
      const [entry] = await listAuditEntries(t.storage, { action: 'risk.lists.add' }, undefined, 1);
      assert.ok(entry);
      assert.doesNotMatch(text(entry), /4111111111111111/);
    });

    it('verifies the chain through the admin API', async () => {
      const verdict = json(await admin('GET', '/admin/audit/verify'));
      assert.equal(verdict['ok'], true);
      assert.ok((verdict['entries'] as number) >= 5);
    });
  });
}
