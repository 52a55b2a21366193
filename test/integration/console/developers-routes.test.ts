/**
 * The developers' pages (issue 31) through their routes: every role allowed or refused on each page
 * and change, a merchant's person never reaching another merchant's tokens, webhooks or requests
 * (404), secrets shown once and never cached, the request log's filters and answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mayPerform, type Action } from '../../../src/domain/access/permissions.js';
import { ROLES, isOperatorRole, type Role } from '../../../src/domain/access/roles.js';
import type { CreatedEntity } from '../../../src/operations/admin/create-entity.js';
import { insertApiRequests } from '../../../src/storage/repositories/api-request-log.js';
import { testDatabases } from '../../support/databases.js';
import { consoleGet, consolePost, signInAs, type ConsoleSession } from '../../support/console.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

const PAGES: readonly { url: string; action: Action }[] = [
  { url: '/console/developers/credentials', action: 'credentials.view' },
  { url: '/console/developers/webhooks', action: 'webhooks.view' },
  { url: '/console/developers/requests', action: 'request-log.view' },
];

for (const database of testDatabases()) {
  describe(`the developers' pages (${database.name})`, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    let other: CreatedEntity;
    let otherWebhookId: string;
    const sessions = new Map<string, Promise<ConsoleSession>>();
    /** One signed-in person per role and merchant (operators see every merchant). */
    const session = (role: Role, merchantId = merchant.entityId): Promise<ConsoleSession> => {
      const key = isOperatorRole(role) ? role : `${role}:${merchantId}`;
      if (!sessions.has(key)) sessions.set(key, signInAs(t, isOperatorRole(role) ? { role } : { role, merchantId }));
      return sessions.get(key)!;
    };
    const get = async (url: string, role: Role, merchantId = merchant.entityId) => consoleGet(t, await session(role, merchantId), url);
    const post = async (url: string, role: Role, fields: Record<string, string>, merchantId = merchant.entityId) => consolePost(t, await session(role, merchantId), url, fields);

    before(async () => {
      t = await startTestApp(await database.open());
      merchant = await t.createMerchant('Shop');
      other = await t.createMerchant('Other');
      const created = await post('/console/developers/webhooks', 'merchant-admin', { entity: other.entityId, url: 'https://other.example/hooks' }, other.entityId);
      otherWebhookId = /\/console\/developers\/webhooks\/([0-9a-f]{32})/.exec(created.body)![1]!;
    });
    after(async () => {
      await t?.close();
      await t?.storage.close();
    });

    it('opens each page to the roles whose action allows it and refuses the others (403)', async () => {
      for (const role of ROLES) {
        for (const page of PAGES) {
          const url = isOperatorRole(role) ? `${page.url}?merchant=${merchant.entityId}` : page.url;
          const response = await get(url, role);
          assert.equal(response.statusCode, mayPerform(role, page.action) ? 200 : 403, `${role} ${page.url}`);
          assert.match(String(response.headers['content-security-policy']), /script-src 'self'/);
        }
        const index = await get('/console/developers', role);
        const any = PAGES.some((page) => mayPerform(role, page.action));
        assert.equal(index.statusCode, any ? 200 : 403, `${role} index`);
        for (const page of PAGES) assert.equal(index.body.includes(`href="${page.url}"`), any && mayPerform(role, page.action), `${role} link ${page.url}`);
      }
    });

    it('lets only the roles that manage credentials create one; the token is shown once and never cached', async () => {
      for (const role of ROLES) {
        const response = await post('/console/developers/credentials', role, { entity: merchant.entityId, ...(isOperatorRole(role) ? { merchant: merchant.entityId } : {}) });
        assert.equal(response.statusCode, mayPerform(role, 'credentials.manage') ? 200 : 403, role);
        if (response.statusCode !== 200) continue;
        assert.equal(response.headers['cache-control'], 'no-store');
        assert.match(response.body, /authentication\.password/);
        const token = /<code class="dev-secret">([A-Za-z0-9+/=]{60,})<\/code>/.exec(response.body)?.[1];
        assert.ok(token, 'the Bearer token is on the page');
        const list = await get(`/console/developers/credentials?merchant=${merchant.entityId}`, role);
        assert.equal(list.body.includes(token), false, 'the list never shows a token');
      }
    });

    it("answers 404 to a merchant's person for another merchant's token, webhook or entity, and changes nothing", async () => {
      assert.equal((await get(`/console/developers/credentials/${other.tokenId}/revoke`, 'developer')).statusCode, 404);
      assert.equal((await post(`/console/developers/credentials/${other.tokenId}/revoke`, 'developer', {})).statusCode, 404);
      assert.equal((await post('/console/developers/credentials', 'developer', { entity: other.entityId })).statusCode, 404);
      assert.equal((await post('/console/developers/credentials/legacy-auth', 'merchant-admin', { entity: other.entityId, enabled: 'false' })).statusCode, 404);
      assert.equal((await get(`/console/developers/webhooks/${otherWebhookId}`, 'developer')).statusCode, 404);
      for (const action of ['test', 'activate', 'deactivate', 'delete', 'rotate', 'confirm-secret', 'cancel-rotation']) {
        assert.equal((await post(`/console/developers/webhooks/${otherWebhookId}/${action}`, 'merchant-admin', { installed: 'yes', stored: 'yes' })).statusCode, 404, action);
      }
      assert.equal((await get(`/console/developers/credentials?merchant=${other.entityId}`, 'developer')).body.includes(other.tokenId), false);
      const revoked = await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM access_tokens WHERE entity_id = $1 AND revoked_at IS NOT NULL', [other.entityId]);
      assert.equal(Number(revoked.rows[0]!.n), 0);
      assert.equal((await get(`/console/developers/webhooks/${otherWebhookId}`, 'operator-read-only')).statusCode, 200);
    });

    it('revokes after asking first, and only the admin roles turn the authentication fields on or off', async () => {
      const ask = await get(`/console/developers/credentials/${merchant.tokenId}/revoke`, 'developer');
      assert.equal(ask.statusCode, 200);
      assert.match(ask.body, /method="post"/);
      const done = await post(`/console/developers/credentials/${merchant.tokenId}/revoke`, 'developer', {});
      assert.equal(done.statusCode, 303);
      assert.equal(done.headers.location, '/console/developers/credentials?done=revoked');
      assert.equal((await post('/console/developers/credentials/legacy-auth', 'developer', { entity: merchant.entityId, enabled: 'false' })).statusCode, 403);
      assert.equal((await post('/console/developers/credentials/legacy-auth', 'merchant-admin', { entity: merchant.entityId, enabled: 'false' })).statusCode, 303);
      const created = await post('/console/developers/credentials', 'developer', { entity: merchant.entityId });
      assert.match(created.body, /fields are turned off/);
      assert.doesNotMatch(created.body, /Turn the fields on/);
      assert.match((await post('/console/developers/credentials', 'merchant-admin', { entity: merchant.entityId })).body, /Turn the fields on/);
    });

    it('registers a webhook (secret once), offers the test after the receiver holds it, rotates with an overlap', async () => {
      const created = await post('/console/developers/webhooks', 'developer', { entity: merchant.entityId, url: 'https://shop.example/hooks', types: 'PAYMENT' });
      assert.equal(created.statusCode, 200);
      assert.equal(created.headers['cache-control'], 'no-store');
      assert.match(created.body, /<code class="dev-secret">[0-9a-f]{64}<\/code>/);
      assert.match(created.body, /name="stored"[^>]*required/);
      const webhookId = /webhooks\/([0-9a-f]{32})\/test/.exec(created.body)![1]!;
      const refused = await post(`/console/developers/webhooks/${webhookId}/test`, 'developer', {});
      assert.equal(refused.statusCode, 400, 'a test needs the tick that the receiver holds the secret');
      const page = await get(`/console/developers/webhooks/${webhookId}`, 'read-only');
      assert.equal(page.statusCode, 403);
      const detail = await get(`/console/developers/webhooks/${webhookId}`, 'operator-read-only');
      assert.equal(detail.statusCode, 200);
      assert.doesNotMatch(detail.body, /Rotate the secret/, 'a read-only operator sees no change');
      const rotated = await post(`/console/developers/webhooks/${webhookId}/rotate`, 'developer', { overlapHours: '48' });
      assert.equal(rotated.statusCode, 200);
      assert.equal(rotated.headers['cache-control'], 'no-store');
      assert.match(rotated.body, /2026-11-24 10:00:00 UTC/);
      assert.equal((await post(`/console/developers/webhooks/${webhookId}/rotate`, 'developer', { overlapHours: '999' })).statusCode, 400);
      assert.equal((await post(`/console/developers/webhooks/${webhookId}/confirm-secret`, 'developer', {})).statusCode, 400);
      const confirmed = await post(`/console/developers/webhooks/${webhookId}/confirm-secret`, 'developer', { installed: 'yes' });
      assert.equal(confirmed.headers.location, `/console/developers/webhooks/${webhookId}?done=secret-switched`);
      assert.equal((await post(`/console/developers/webhooks/${webhookId}/delete`, 'developer', {})).statusCode, 303);
      assert.equal((await get(`/console/developers/webhooks/${webhookId}`, 'developer')).statusCode, 404);
    });

    it("shows the merchant's requests only, with filters, result descriptions, payment links and field messages", async () => {
      const at = t.clock.now();
      const row = (entityId: string, status: number, resultCode: string, transactionId: string | null, path = '/v1/payments') =>
        ({ entityId, at, method: 'POST', path, status, resultCode, durationMs: 12, requestId: `r-${entityId.slice(0, 4)}-${status}`, transactionId, tokenId: null });
      await insertApiRequests(t.storage, [
        row(merchant.entityId, 400, '100.100.101', null),
        row(merchant.entityId, 200, '000.100.110', 'a'.repeat(32)),
        row(other.entityId, 400, '800.100.151', null, '/v1/other-merchant-path'),
      ]);
      const all = await get('/console/developers/requests', 'developer');
      assert.equal(all.statusCode, 200);
      assert.doesNotMatch(all.body, /other-merchant-path/);
      assert.match(all.body, new RegExp(`/console/payments/${'a'.repeat(32)}`));
      const refusedOnly = await get('/console/developers/requests?status=4xx', 'developer');
      assert.match(refusedOnly.body, /100\.100\.101/);
      assert.doesNotMatch(refusedOnly.body, /000\.100\.110/);
      assert.match(refusedOnly.body, /invalid creditcard, bank account number or bank name/);
      const foreign = await get(`/console/developers/requests?entity=${other.entityId}`, 'developer');
      assert.equal(foreign.statusCode, 404);
      assert.doesNotMatch(foreign.body, /other-merchant-path/);
      const bad = await get('/console/developers/requests?status=4x&from=yesterday&resultCode=1', 'developer');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /id="e-status"/);
      assert.match(bad.body, /id="e-from"/);
      assert.match(bad.body, /id="e-resultCode"/);
      const operator = await get(`/console/developers/requests?entity=${other.entityId}`, 'operator-support');
      assert.match(operator.body, /other-merchant-path/);
    });
    it('refuses every change of the area without the session\'s CSRF token (403), changing nothing', async () => {
      const me = await session('merchant-admin');
      const webhook = await post('/console/developers/webhooks', 'merchant-admin', { entity: merchant.entityId, url: 'https://shop.example/csrf' });
      const webhookId = /webhooks\/([0-9a-f]{32})\/test/.exec(webhook.body)![1]!;
      const changes: [string, Record<string, string>][] = [
        ['/console/developers/credentials', { entity: merchant.entityId }],
        [`/console/developers/credentials/${other.tokenId}/revoke`, {}],
        ['/console/developers/credentials/legacy-auth', { entity: merchant.entityId, enabled: 'false' }],
        ['/console/developers/webhooks', { entity: merchant.entityId, url: 'https://shop.example/forged' }],
        ...['test', 'activate', 'rotate', 'confirm-secret', 'cancel-rotation', 'deactivate', 'delete'].map((action): [string, Record<string, string>] => [`/console/developers/webhooks/${webhookId}/${action}`, { stored: 'yes', installed: 'yes' }]),
        ['/console/developers/webhooks/deliveries/' + 'b'.repeat(32) + '/resend', {}],
      ];
      const entries = await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
      for (const [url, fields] of changes) {
        const forged = await consolePost(t, me, url, { ...fields, _csrf: 'forged' });
        assert.equal(forged.statusCode, 403, url);
      }
      assert.equal(Number((await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n), Number(entries.rows[0]!.n));
    });
  });
}
