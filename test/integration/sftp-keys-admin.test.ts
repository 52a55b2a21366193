/**
 * GET /admin/entities/{id}/sftp-keys: the merchant's public keys, for `npm run sftp` on the
 * embedded database; the admin token only, and nothing for an id that is no merchant's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomIds } from '../../src/domain/ids.js';
import { createEntity } from '../../src/operations/admin/create-entity.js';
import { addSftpKey } from '../../src/operations/settlement/add-sftp-key.js';
import { testDatabases } from '../support/databases.js';
import { merchantKeyPair } from '../support/sftp-client.js';
import { bearer, json, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

for (const database of testDatabases()) {
  describe(`the SFTP keys of the admin API (${database.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(await database.open());
    });
    after(async () => {
      await t?.close();
      await t?.storage.close();
    });

    it('answers the merchant\'s public keys to the admin token, and to nobody else', async () => {
      const merchant = await createEntity({ storage: t.storage, clock: t.clock, ids: randomIds }, { name: 'Shop' });
      const key = merchantKeyPair();
      await addSftpKey({ storage: t.storage, clock: t.clock, ids: randomIds }, merchant.entityId, key.publicKey);
      const answer = await t.app.inject({ method: 'GET', url: `/admin/entities/${merchant.entityId}/sftp-keys`, headers: bearer(TEST_ADMIN_TOKEN) });
      assert.equal(answer.statusCode, 200);
      assert.deepEqual(json(answer).keys, [key.publicKey.trim().split(' ').slice(0, 2).join(' ')]);
      assert.deepEqual(json(await t.app.inject({ method: 'GET', url: `/admin/entities/${'0'.repeat(32)}/sftp-keys`, headers: bearer(TEST_ADMIN_TOKEN) })).keys, []);
      assert.deepEqual(json(await t.app.inject({ method: 'GET', url: '/admin/entities/not-an-id/sftp-keys', headers: bearer(TEST_ADMIN_TOKEN) })).keys, []);
      const merchantToken = await t.app.inject({ method: 'GET', url: `/admin/entities/${merchant.entityId}/sftp-keys`, headers: bearer(merchant.accessToken) });
      assert.notEqual(merchantToken.statusCode, 200, 'a merchant\'s token is no admin token');
    });
  });
}
