/**
 * The console's vault page counts the values each data key seals, across every table the vault
 * seals into (SEALED_COLUMNS, checked here against the schema).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countSealedValuesByDataKey, SEALED_COLUMNS } from '../../src/storage/repositories/sealed-values.js';
import { testDatabases } from '../support/databases.js';
import { consoleGet, signInAs } from '../support/console.js';
import { FORM_HEADERS, TEST_ADMIN_TOKEN, form, startTestApp, type TestApp } from '../support/test-app.js';

for (const database of testDatabases()) {
  describe(`sealed values per data key on ${database.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(await database.open());
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });
    const addRoute = (currency: string) =>
      t.app.inject({ method: 'POST', url: '/admin/routes', headers: { ...FORM_HEADERS, authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: form({ connector: 'simulator', currency, 'credentials[apiKey]': 'secret-Zq9vX7' }) });

    it("lists every table with a data key column (a new sealed column must join SEALED_COLUMNS)", async () => {
      const { rows } = await t.storage.query<{ table_name: string; column_name: string }>(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name LIKE '%data_key_id' ORDER BY table_name, column_name");
      const inSchema = rows.map((r) => `${r.table_name}.${r.column_name}`).sort();
      assert.deepEqual(inSchema, SEALED_COLUMNS.map((c) => `${c.table}.${c.dataKeyId}`).sort());
    });

    it('counts the values sealed under each data key and shows them on the vault page', async () => {
      // The operator's authenticator secret is sealed too (console_users), under the same key of the day.
      const operator = await signInAs(t, { role: 'operator-read-only' });
      const totps = (await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM console_users WHERE totp_data_key_id IS NOT NULL')).rows[0]!.n;
      assert.ok(totps >= 1);
      assert.equal((await addRoute('EUR')).statusCode, 201);
      assert.equal((await addRoute('USD')).statusCode, 201);
      const { rows } = await t.storage.query<{ id: string }>('SELECT DISTINCT data_key_id AS id FROM connector_routes WHERE data_key_id IS NOT NULL');
      assert.equal(rows.length, 1, 'both sealed under the data key of the day');
      const keyId = rows[0]!.id.trim();
      const uses = await countSealedValuesByDataKey(t.storage, 100);
      const today = uses.find((u) => u.dataKeyId === keyId);
      assert.equal(today?.sealedValues, 2 + totps);
      assert.equal(today?.purpose, 'data');

      const page = await consoleGet(t, operator, '/console/operator/vault');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, new RegExp(`<code>${keyId}</code></td>.*?data-label="Values it seals">${2 + totps}</td>`));
      assert.equal(page.body.includes('secret-Zq9vX7'), false);
      const refused = await consoleGet(t, await signInAs(t, { role: 'merchant-admin', merchantId: (await t.createMerchant()).entityId }), '/console/operator/vault');
      assert.equal(refused.statusCode, 403);
    });
  });
}
