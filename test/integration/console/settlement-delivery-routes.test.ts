/**
 * The console's reconciliation file delivery (issue 32) through its routes, on both databases:
 * every role allowed or refused to see the page and to make each change (per the PERMISSIONS
 * table), CSRF, a merchant's person never reaching another merchant's keys or target (404), a
 * private key refused and never echoed, a bad push URL refused naming the field, the password
 * never shown, every change audited; and the SFTP server (in the gateway's process and through
 * the admin API, as `npm run sftp` reads keys on the embedded database) refusing a removed key.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { mayPerform, type Action } from '../../../src/domain/access/permissions.js';
import { isOperatorRole, ROLES, type Role } from '../../../src/domain/access/roles.js';
import { randomIds } from '../../../src/domain/ids.js';
import { sshKeySummary } from '../../../src/domain/settlement/ssh-key-fingerprint.js';
import type { CreatedEntity } from '../../../src/operations/admin/create-entity.js';
import { addSftpKey } from '../../../src/operations/settlement/add-sftp-key.js';
import { readableEd25519KeyPair } from '../../../src/sftp/ed25519-key.js';
import { gatewayKeyStore } from '../../../src/sftp/gateway-key-store.js';
import { startSftpServer, type SftpKeyStore } from '../../../src/sftp/sftp-server.js';
import { publicKeysOf } from '../../../src/storage/repositories/sftp-keys.js';
import { consoleGet, consolePost, signInAs, type ConsoleSession } from '../../support/console.js';
import { testDatabases } from '../../support/databases.js';
import { connectSftp, merchantKeyPair } from '../../support/sftp-client.js';
import { bearer, json, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../../support/test-app.js';

const PAGE = '/console/settlement/delivery';
const PASSWORD = 'push-secret-4711';

for (const database of testDatabases()) {
  describe(`the console's reconciliation file delivery (${database.name})`, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    let other: CreatedEntity;
    const filesDir = mkdtempSync(join(tmpdir(), 'console-delivery-'));
    const sessions = new Map<string, Promise<ConsoleSession>>();
    const session = (role: Role, merchantId = merchant.entityId): Promise<ConsoleSession> => {
      const key = isOperatorRole(role) ? role : `${role}:${merchantId}`;
      if (!sessions.has(key)) sessions.set(key, signInAs(t, isOperatorRole(role) ? { role } : { role, merchantId }));
      return sessions.get(key)!;
    };
    const get = async (url: string, role: Role, merchantId = merchant.entityId) => consoleGet(t, await session(role, merchantId), url);
    const post = async (path: string, role: Role, fields: Record<string, string>, merchantId = merchant.entityId) =>
      consolePost(t, await session(role, merchantId), `${PAGE}${path}`, { ...(isOperatorRole(role) ? { merchant: merchantId } : {}), ...fields });
    const keyIdsOf = async (merchantId: string) => (await t.storage.query<{ id: string }>('SELECT id FROM sftp_keys WHERE merchant_id = $1 ORDER BY created_at', [merchantId])).rows.map((r) => r.id.trim());
    const auditRows = async (action: string) => (await t.storage.query<{ after: unknown; actor: string; role: string | null; merchant_id: string | null }>('SELECT after, actor, role, merchant_id FROM audit_log WHERE action = $1 ORDER BY seq', [action])).rows;
    const deps = () => ({ storage: t.storage, clock: t.clock, ids: randomIds });

    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn', SETTLEMENT_FILES_DIR: filesDir } });
      merchant = await t.createMerchant('Shop');
      other = await t.createMerchant('Other shop');
    });
    after(async () => {
      await t?.close();
      await t?.storage.close();
      rmSync(filesDir, { recursive: true, force: true });
    });

    it('opens the page to the roles with settlement.delivery.view and refuses the others (403)', async () => {
      const key = merchantKeyPair();
      await addSftpKey(deps(), merchant.entityId, key.publicKey);
      const fingerprint = sshKeySummary(key.publicKey)!.fingerprint;
      for (const role of ROLES) {
        const response = await get(isOperatorRole(role) ? `${PAGE}?merchant=${merchant.entityId}` : PAGE, role);
        const allowed = mayPerform(role, 'settlement.delivery.view');
        assert.equal(response.statusCode, allowed ? 200 : 403, role);
        if (!allowed) continue;
        assert.ok(response.body.includes(fingerprint), `${role} sees the key's fingerprint`);
        assert.ok(!response.body.includes(key.publicKey.split(' ')[1]!), `${role}: never the whole key`);
        assert.equal(response.body.includes('Add the key'), mayPerform(role, 'settlement.delivery.manage'), `${role}: the forms only to those who may change`);
      }
    });

    it('lets an operator choose the merchant, and shows a merchant\'s person their own only (another merchant named: 404)', async () => {
      const operator = await get(PAGE, 'operator-support');
      assert.equal(operator.statusCode, 200);
      assert.match(operator.body, /Choose a merchant/);
      assert.ok(operator.body.includes(other.entityId), 'the merchants to choose from');
      assert.doesNotMatch(operator.body, /SFTP keys \(/, 'nothing until a merchant is chosen');
      assert.equal((await get(`${PAGE}?merchant=${'0'.repeat(32)}`, 'operator-admin')).statusCode, 404);
      const own = await get(PAGE, 'finance');
      assert.equal(own.statusCode, 200);
      assert.ok(own.body.includes(merchant.entityId));
      assert.doesNotMatch(own.body, /Choose a merchant/);
      assert.equal((await get(`${PAGE}?merchant=${other.entityId}`, 'merchant-admin')).statusCode, 404);
    });

    const CHANGES: readonly { path: string; fields: () => Promise<Record<string, string>> }[] = [
      { path: '/keys', fields: async () => ({ key: merchantKeyPair().publicKey }) },
      { path: '/keys/remove', fields: async () => { await addSftpKey(deps(), merchant.entityId, merchantKeyPair().publicKey); return { keyId: (await keyIdsOf(merchant.entityId)).at(-1)! }; } },
      { path: '/push-target', fields: async () => ({ url: 'sftp://shop@files.shop.example/inbox', password: PASSWORD }) },
      { path: '/push-target/remove', fields: async () => { await post('/push-target', 'operator-admin', { url: 'sftp://shop@files.shop.example/inbox', password: PASSWORD }); return {}; } },
    ];

    for (const change of CHANGES) {
      it(`lets only the roles with settlement.delivery.manage POST ${change.path}, with the CSRF token`, async () => {
        for (const role of ROLES) {
          const response = await post(change.path, role, await change.fields());
          const allowed = mayPerform(role, 'settlement.delivery.manage' satisfies Action);
          assert.equal(response.statusCode, allowed ? 303 : 403, `${role}: ${response.body.slice(0, 300)}`);
          if (allowed) assert.match(String(response.headers.location), /^\/console\/settlement\/delivery\?/);
        }
        const noCsrf = await post(change.path, 'merchant-admin', { ...(await change.fields()), _csrf: '' });
        assert.equal(noCsrf.statusCode, 403, 'no change without the CSRF token');
      });
    }

    it('adds a key, lists it by its fingerprint, removes it; each change audited with who made it', async () => {
      const key = merchantKeyPair();
      const added = await post('/keys', 'merchant-admin', { key: key.publicKey });
      assert.equal(added.statusCode, 303);
      const page = await get(String(added.headers.location), 'merchant-admin');
      assert.match(page.body, /The key was added/);
      const fingerprint = sshKeySummary(key.publicKey)!.fingerprint;
      assert.ok(page.body.includes(fingerprint));
      const keyId = (await keyIdsOf(merchant.entityId)).at(-1)!;
      const removed = await post('/keys/remove', 'merchant-admin', { keyId });
      assert.equal(removed.statusCode, 303);
      const after = await get(String(removed.headers.location), 'merchant-admin');
      assert.match(after.body, /The key was removed/);
      assert.ok(!after.body.includes(fingerprint), 'the removed key is gone from the page');
      assert.ok(!(await keyIdsOf(merchant.entityId)).includes(keyId), 'and from the database');
      const audit = (await auditRows('settlement.sftp-key.remove')).at(-1)!;
      assert.equal(audit.merchant_id?.trim(), merchant.entityId);
      assert.match(JSON.stringify(audit.after), new RegExp(fingerprint.replace(/[+/]/g, '\\$&')));
      assert.equal(audit.role, 'merchant-admin');
      assert.ok((await auditRows('settlement.sftp-key')).length > 0);
      assert.equal((await post('/keys/remove', 'merchant-admin', { keyId })).statusCode, 404, 'a key already removed');
    });

    it('refuses a private key pasted by mistake (400, the field named) and never echoes it or stores it', async () => {
      const pair = readableEd25519KeyPair();
      const before = await keyIdsOf(merchant.entityId);
      const refused = await post('/keys', 'merchant-admin', { key: pair.private });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.body, /must be one OpenSSH public key/);
      assert.match(refused.body, /id="sftp-key"[^>]*aria-invalid="true"/);
      const secretLine = pair.private.split('\n').find((line) => line.length > 40)!;
      assert.ok(!refused.body.includes(secretLine), 'the private key is never sent back');
      assert.deepEqual(await keyIdsOf(merchant.entityId), before);
      assert.equal((await post('/keys', 'merchant-admin', { key: 'not a key' })).statusCode, 400);
    });

    it('never reaches another merchant: its key id answers 404 and stays; a posted merchant of a merchant\'s person is refused', async () => {
      await addSftpKey(deps(), other.entityId, merchantKeyPair().publicKey);
      const [otherKey] = await keyIdsOf(other.entityId);
      assert.equal((await post('/keys/remove', 'merchant-admin', { keyId: otherKey! })).statusCode, 404);
      assert.equal((await post('/keys/remove', 'merchant-admin', { keyId: otherKey!, merchant: other.entityId })).statusCode, 404);
      assert.deepEqual(await keyIdsOf(other.entityId), [otherKey]);
      const pushed = await post('/push-target', 'merchant-admin', { merchant: other.entityId, url: 'sftp://x@files.other.example/in', password: PASSWORD });
      assert.equal(pushed.statusCode, 404);
      assert.equal((await t.storage.query('SELECT 1 FROM settlement_push_targets WHERE merchant_id = $1', [other.entityId])).rows.length, 0);
      const keyOfOther = await post('/keys', 'merchant-admin', { merchant: other.entityId, key: merchantKeyPair().publicKey });
      assert.equal(keyOfOther.statusCode, 404);
      assert.equal((await keyIdsOf(other.entityId)).length, 1);
      assert.equal((await post('/keys', 'operator-admin', { key: merchantKeyPair().publicKey }, other.entityId)).statusCode, 303, 'an operator names the merchant');
    });

    it('sets, shows (URL and when, never the password), replaces and removes the push target; a bad URL is refused naming the field', async () => {
      const set = await post('/push-target', 'merchant-admin', { url: 'sftp://shop@files.shop.example:2222/inbox', password: PASSWORD });
      assert.equal(set.statusCode, 303);
      const page = await get(String(set.headers.location), 'finance');
      assert.match(page.body, /sftp:\/\/shop@files\.shop\.example:2222\/inbox/);
      assert.match(page.body, /set \d{4}-\d{2}-\d{2} /);
      assert.ok(!page.body.includes(PASSWORD));
      const audit = JSON.stringify(await auditRows('settlement.push-target'));
      assert.ok(!audit.includes(PASSWORD), 'no password in the audit log');
      for (const [url, pattern] of [['http://files.shop.example/in', /sftp:\/\/, ftps:\/\/ or ftp:\/\//], ['sftp://shop@10.0.0.8/in', /10\.0\.0\.8/], ['sftp://files.shop.example/in', /must name a user/]] as const) {
        const refused = await post('/push-target', 'merchant-admin', { url, password: PASSWORD });
        assert.equal(refused.statusCode, 400, url);
        assert.match(refused.body, pattern, url);
        assert.match(refused.body, /id="push-url"[^>]*aria-invalid="true"/, `${url}: the URL field is marked`);
        assert.ok(!refused.body.includes(PASSWORD), 'the password is never echoed');
      }
      const withPassword = await post('/push-target', 'merchant-admin', { url: `sftp://shop:${PASSWORD}@files.shop.example/in`, password: PASSWORD });
      assert.equal(withPassword.statusCode, 400);
      assert.ok(!withPassword.body.includes(PASSWORD), 'a password typed into the URL is not echoed either');
      const noPassword = await post('/push-target', 'merchant-admin', { url: 'sftp://shop@files.shop.example/in', password: '' });
      assert.equal(noPassword.statusCode, 400);
      assert.match(noPassword.body, /id="push-password"[^>]*aria-invalid="true"/);
      const removed = await post('/push-target/remove', 'merchant-admin', {});
      assert.equal(removed.statusCode, 303);
      assert.match((await get(String(removed.headers.location), 'merchant-admin')).body, /No push target/);
      assert.equal((await auditRows('settlement.push-target.remove')).length > 0, true);
      assert.equal((await post('/push-target/remove', 'merchant-admin', {})).statusCode, 404, 'nothing to remove');
    });

    it('DELETE /admin/entities/{id}/sftp-keys/{keyId}: removes the key, audited; another merchant\'s or an unknown key is 404', async () => {
      const key = merchantKeyPair();
      const added = await addSftpKey(deps(), merchant.entityId, key.publicKey);
      const wrong = await t.app.inject({ method: 'DELETE', url: `/admin/entities/${other.entityId}/sftp-keys/${added.keyId}`, headers: bearer(TEST_ADMIN_TOKEN) });
      assert.equal(wrong.statusCode, 404);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/admin/entities/${merchant.entityId}/sftp-keys/${added.keyId}`, headers: bearer(merchant.accessToken) })).statusCode === 200, false, 'a merchant\'s token is no admin token');
      const removed = await t.app.inject({ method: 'DELETE', url: `/admin/entities/${merchant.entityId}/sftp-keys/${added.keyId}`, headers: bearer(TEST_ADMIN_TOKEN) });
      assert.equal(removed.statusCode, 200, removed.body);
      assert.equal(json(removed).fingerprint, sshKeySummary(key.publicKey)!.fingerprint);
      assert.ok(!(await keyIdsOf(merchant.entityId)).includes(added.keyId));
      const again = await t.app.inject({ method: 'DELETE', url: `/admin/entities/${merchant.entityId}/sftp-keys/${added.keyId}`, headers: bearer(TEST_ADMIN_TOKEN) });
      assert.equal(again.statusCode, 404);
      assert.equal(json(again).result.code, '200.300.406');
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/admin/entities/${merchant.entityId}/sftp-keys/not-a-key`, headers: bearer(TEST_ADMIN_TOKEN) })).statusCode, 404);
    });

    for (const store of ['the database (SFTP in the gateway\'s process)', 'the admin API (npm run sftp on the embedded database)'] as const) {
      it(`the SFTP server refuses a key removed in the console at its next login, keys read through ${store}`, async () => {
        let base: string | undefined;
        let keys: SftpKeyStore = { publicKeysOf: (id) => publicKeysOf(t.storage, id) };
        if (store.startsWith('the admin API')) {
          base = await t.app.listen({ host: '127.0.0.1', port: 0 });
          keys = gatewayKeyStore(base, TEST_ADMIN_TOKEN);
        }
        const server = await startSftpServer({ host: '127.0.0.1', port: 0, hostKey: readableEd25519KeyPair().private, filesDir, keys });
        try {
          const key = merchantKeyPair();
          const kept = merchantKeyPair();
          assert.equal((await post('/keys', 'merchant-admin', { key: key.publicKey })).statusCode, 303);
          assert.equal((await post('/keys', 'merchant-admin', { key: kept.publicKey })).statusCode, 303);
          (await connectSftp(server.port, merchant.entityId, key.privateKey)).close();
          const keyId = (await keyIdsOf(merchant.entityId)).at(-2)!;
          assert.equal((await post('/keys/remove', 'merchant-admin', { keyId })).statusCode, 303);
          await assert.rejects(connectSftp(server.port, merchant.entityId, key.privateKey), /authentication/i, 'the removed key is refused');
          (await connectSftp(server.port, merchant.entityId, kept.privateKey)).close();
        } finally {
          await server.close();
        }
      });
    }
  });
}
