/**
 * The operator's pages (issue 32) through their routes: every page and change allowed to the
 * operator roles whose action permits it and refused to every other role (a merchant's person on
 * every page), CSRF refused on each change, bad input answered next to its field, each change
 * audited exactly as the admin API audits it, no card number and no route secret on any page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mayPerform, type Action } from '../../../src/domain/access/permissions.js';
import { MERCHANT_ROLES, ROLES, isOperatorRole, type Role } from '../../../src/domain/access/roles.js';
import type { CreatedEntity } from '../../../src/operations/admin/create-entity.js';
import { testDatabases } from '../../support/databases.js';
import { consoleGet, consolePost, signInAs, type ConsoleSession } from '../../support/console.js';
import { FORM_HEADERS, TEST_ADMIN_TOKEN, form, startTestApp, type TestApp } from '../../support/test-app.js';

const CARD = '4012888888881881';
const SECRET = 'route-secret-Zq9vX7';

interface AuditRow { action: string; target_kind: string; target_id: string; actor_kind: string; role: string | null; merchant_id: string | null; before: unknown; after: unknown }

for (const database of testDatabases()) {
  describe(`the operator's pages (${database.name})`, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    let routeId: string;
    const sessions = new Map<string, Promise<ConsoleSession>>();
    const session = (role: Role): Promise<ConsoleSession> => {
      if (!sessions.has(role)) sessions.set(role, signInAs(t, isOperatorRole(role) ? { role } : { role, merchantId: merchant.entityId }));
      return sessions.get(role)!;
    };
    const get = async (url: string, role: Role) => consoleGet(t, await session(role), url);
    const post = async (url: string, role: Role, fields: Record<string, string | string[]> = {}) => consolePost(t, await session(role), url, fields);
    const auditRows = async (action: string): Promise<AuditRow[]> =>
      (await t.storage.query<AuditRow>('SELECT action, target_kind, target_id, actor_kind, role, merchant_id, before, after FROM audit_log WHERE action = $1 ORDER BY seq', [action])).rows;
    const admin = (method: 'POST' | 'PUT', url: string, fields: Record<string, string>) =>
      t.app.inject({ method, url, headers: { ...FORM_HEADERS, authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: form(fields) });

    before(async () => {
      t = await startTestApp(await database.open());
      merchant = await t.createMerchant('Corner Shop');
      const created = await admin('POST', '/admin/routes', { connector: 'simulator', entity: merchant.entityId, currency: 'EUR', 'credentials[apiKey]': SECRET });
      assert.equal(created.statusCode, 201, created.body);
      routeId = JSON.parse(created.body).routeId;
    });
    after(async () => {
      await t?.close();
      await t?.storage.close();
    });

    const pages = (): readonly { url: string; action: Action }[] => [
      { url: '/console/operator', action: 'system.view' },
      { url: '/console/operator/status', action: 'system.view' },
      { url: '/console/operator/jobs', action: 'jobs.view' },
      { url: '/console/operator/entities', action: 'entities.view' },
      { url: `/console/operator/entities/${merchant.entityId}`, action: 'entities.view' },
      { url: '/console/operator/routes', action: 'routes.view' },
      { url: `/console/operator/routes/${routeId}/credentials`, action: 'routes.manage' },
      { url: '/console/operator/vault', action: 'vault.view' },
    ];

    it('opens each page to the operator roles its action allows and refuses every other role (403)', async () => {
      for (const role of ROLES) {
        for (const page of pages()) {
          const response = await get(page.url, role);
          assert.equal(response.statusCode, mayPerform(role, page.action) ? 200 : 403, `${role} ${page.url}`);
          if (!isOperatorRole(role)) assert.equal(response.statusCode, 403, `a merchant's ${role} is refused ${page.url}`);
        }
        const home = await get('/console/payments', role);
        assert.equal(home.body.includes('href="/console/operator"'), isOperatorRole(role), `${role} navigation`);
      }
    });

    const changes = (): readonly { url: string; action: Action; fields: Record<string, string> }[] => [
      { url: '/console/operator/jobs/1/retry', action: 'jobs.retry', fields: {} },
      { url: '/console/operator/jobs/retry-kind', action: 'jobs.retry', fields: { kind: 'deliver-webhook' } },
      { url: '/console/operator/entities', action: 'entities.manage', fields: { name: 'Refused shop' } },
      { url: `/console/operator/entities/${merchant.entityId}/three-d-secure`, action: 'entities.manage', fields: { requirement: 'always' } },
      { url: `/console/operator/entities/${merchant.entityId}/legacy-auth`, action: 'entities.manage', fields: { enabled: 'false' } },
      { url: `/console/operator/entities/${merchant.entityId}/unknown-parameters`, action: 'entities.manage', fields: { mode: 'ignore' } },
      { url: `/console/operator/entities/${merchant.entityId}/connector-details`, action: 'entities.manage', fields: { enabled: 'false' } },
      { url: `/console/operator/entities/${merchant.entityId}/throttling`, action: 'entities.manage', fields: { maxRequests: '50' } },
      { url: '/console/operator/routes', action: 'routes.manage', fields: { connector: 'simulator', currency: 'USD' } },
      { url: `/console/operator/routes/${routeId}/credentials`, action: 'routes.manage', fields: { credentialName: 'apiKey', credentialValue: 'x' } },
      { url: `/console/operator/routes/${routeId}/disable`, action: 'routes.manage', fields: {} },
      { url: '/console/operator/vault/rotate', action: 'vault.rotate', fields: {} },
    ];

    it('refuses every change to the roles its action does not allow (403), changing nothing', async () => {
      const before = (await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n;
      for (const role of ROLES) {
        for (const change of changes()) {
          if (mayPerform(role, change.action)) continue;
          const response = await post(change.url, role, change.fields);
          assert.equal(response.statusCode, 403, `${role} ${change.url}`);
        }
      }
      for (const role of MERCHANT_ROLES) for (const change of changes()) assert.equal(mayPerform(role, change.action), false, `${role} ${change.action}`);
      const afterCount = (await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n;
      assert.equal(afterCount, before, 'no refused change was made or audited');
    });

    it('refuses each change without the CSRF token or with another one', async () => {
      const own = await session('operator-admin');
      for (const change of changes()) {
        const without = await t.app.inject({ method: 'POST', url: change.url, headers: { ...FORM_HEADERS, cookie: own.cookie }, payload: form(change.fields) });
        assert.equal(without.statusCode, 403, `${change.url} without a token`);
        const wrong = await consolePost(t, own, change.url, { ...change.fields, _csrf: 'x'.repeat(43) });
        assert.equal(wrong.statusCode, 403, `${change.url} with a wrong token`);
      }
      assert.equal((await auditRows('routes.disable')).length, 0);
    });

    it('shows the system status: readiness checks, versions, migrations applied against those shipped', async () => {
      const page = await get('/console/operator/status', 'operator-read-only');
      assert.match(page.body, /Node\.js<\/dt><dd>\d+\.\d+/);
      assert.match(page.body, /PostgreSQL \d+/);
      assert.match(page.body, /Database<\/td><td[^>]*>ok</);
      assert.match(page.body, /\d+ applied of \d+ this build ships/);
      assert.doesNotMatch(page.body, /not applied yet/);
      assert.equal(page.headers['cache-control'], 'no-store');
    });

    it('counts jobs by kind and state, lists failed ones with their error masked, and retries them audited', async () => {
      const now = t.clock.now();
      const insert = (kind: string, failures: number, failedAt: Date | null, error: string) =>
        t.storage.query<{ id: string }>('INSERT INTO jobs (kind, payload, run_at, failure_count, last_error, failed_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $3) RETURNING id::text AS id', [kind, '{}', now, failures, error, failedAt]);
      const givenUp = (await insert('deliver-webhook', 25, now, `Error: acquirer said card ${CARD} unknown`)).rows[0]!.id;
      await insert('deliver-webhook', 3, null, 'Error: timeout');
      await insert('settle-day', 25, now, 'Error: disk full');
      const page = await get('/console/operator/jobs', 'operator-support');
      assert.equal(page.statusCode, 200);
      assert.equal(page.body.includes(CARD), false, 'no card number on the page');
      assert.match(page.body, /acquirer said card \*+ unknown|acquirer said card [^<]*\*{4}/);
      assert.match(page.body, /Retry all 2/);
      const readOnly = await get('/console/operator/jobs', 'operator-read-only');
      assert.equal(readOnly.body.includes('/retry'), false, 'read-only sees no retry button');

      const retried = await post(`/console/operator/jobs/${givenUp}/retry`, 'operator-support');
      assert.equal(retried.statusCode, 303);
      const row = (await t.storage.query<{ failed_at: Date | null; failure_count: number }>('SELECT failed_at, failure_count FROM jobs WHERE id = $1', [givenUp])).rows[0]!;
      assert.deepEqual([row.failed_at, Number(row.failure_count)], [null, 0]);
      const [entry] = await auditRows('jobs.retry');
      assert.equal(entry!.target_id, givenUp);
      assert.equal(entry!.role, 'operator-support');
      assert.equal(JSON.stringify(entry!.before).includes(CARD), false, 'the audit entry holds the masked error');
      assert.equal((entry!.before as { failureCount: number }).failureCount, 25);

      assert.equal((await post(`/console/operator/jobs/${givenUp}/retry`, 'operator-support')).statusCode, 404, 'a job no longer failed');
      assert.equal((await post('/console/operator/jobs/abc/retry', 'operator-admin')).statusCode, 404);
      const all = await post('/console/operator/jobs/retry-kind', 'operator-admin', { kind: 'deliver-webhook' });
      assert.equal(all.headers.location, '/console/operator/jobs?done=retried-1');
      assert.deepEqual((await auditRows('jobs.retry-kind')).map((e) => e.after), [{ kind: 'deliver-webhook', retried: 1 }]);
      assert.equal((await post('/console/operator/jobs/retry-kind', 'operator-admin', { kind: 'deliver-webhook' })).statusCode, 404, 'none left');
    });

    it('creates a merchant and a channel (the token shown once), audited as the admin API audits it; a bad name comes back next to its field', async () => {
      const created = await post('/console/operator/entities', 'operator-admin', { name: 'Harbour Books' });
      assert.equal(created.statusCode, 200, created.body);
      assert.equal(created.headers['cache-control'], 'no-store');
      const token = /<code class="dev-secret">([^<]+)<\/code>/.exec(created.body)![1]!;
      const entityId = /<code>([0-9a-f]{32})<\/code>/.exec(created.body)![1]!;
      const channel = await post('/console/operator/entities', 'operator-admin', { name: 'Harbour web', merchant: entityId });
      assert.equal(channel.statusCode, 200);
      const list = await get('/console/operator/entities', 'operator-read-only');
      assert.match(list.body, /Harbour Books/);
      assert.match(list.body, /Harbour web/);
      assert.equal(list.body.includes(token), false, 'the token is never shown again');
      const byApi = await admin('POST', '/admin/entities', { name: 'Api Books' });
      const [fromConsole, , fromApi] = await auditRows('entities.create');
      assert.equal(fromConsole!.actor_kind, 'user');
      assert.equal(fromApi!.actor_kind, 'admin-api');
      assert.deepEqual(Object.keys(fromConsole!.after as object).sort(), Object.keys(fromApi!.after as object).sort());
      assert.equal(fromConsole!.target_kind, fromApi!.target_kind);
      assert.equal(JSON.parse(byApi.body).entityId.length, 32);

      const bad = await post('/console/operator/entities', 'operator-admin', { name: `Shop ${CARD}` });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /<p id="name-error" class="field-error">must not contain a card number<\/p>/);
      assert.equal(bad.body.includes(CARD), false, 'the card number typed is never echoed');
      const empty = await post('/console/operator/entities', 'operator-admin', { name: ' ' });
      assert.match(empty.body, /id="name-error" class="field-error">must be 1 to 128 characters/);
      const noMerchant = await post('/console/operator/entities', 'operator-admin', { name: 'Orphan', merchant: 'f'.repeat(32) });
      assert.equal(noMerchant.statusCode, 404);
      assert.match(noMerchant.body, /id="merchant-error" class="field-error">no merchant entity has this id/);
    });

    it("changes each setting through the admin API's operation, audited alike; a bad value comes back next to its field", async () => {
      const url = (setting: string) => `/console/operator/entities/${merchant.entityId}/${setting}`;
      const ok = async (setting: string, fields: Record<string, string>) => {
        const response = await post(url(setting), 'operator-admin', fields);
        assert.equal(response.statusCode, 303, `${setting}: ${response.body}`);
        assert.equal(response.headers.location, `/console/operator/entities/${merchant.entityId}?done=${setting}`);
      };
      await ok('three-d-secure', { requirement: 'above:50.00:EUR' });
      await ok('legacy-auth', { enabled: 'false' });
      await ok('unknown-parameters', { mode: 'ignore' });
      await ok('connector-details', { enabled: 'false' });
      await ok('throttling', { maxRequests: '50' });
      const detail = await get(`/console/operator/entities/${merchant.entityId}?done=legacy-auth`, 'operator-admin');
      assert.match(detail.body, /Legacy authentication was changed/);
      assert.match(detail.body, /3-D Secure<\/dt><dd>above:50\.00:EUR/);
      assert.match(detail.body, /Unknown parameters<\/dt><dd>ignore/);
      assert.match(detail.body, /Connector details<\/dt><dd>hidden/);
      assert.match(detail.body, /Throttling<\/dt><dd>50 requests per token/);
      assert.match(detail.body, /id="maxRequests"[^>]* value="50"/);
      for (const action of ['entities.three-d-secure', 'entities.legacy-auth', 'entities.unknown-parameters', 'entities.connector-details', 'entities.throttling']) {
        const [entry] = await auditRows(action);
        assert.ok(entry, action);
        assert.equal(entry.target_id, merchant.entityId);
        assert.equal(entry.merchant_id?.trim(), merchant.entityId);
        assert.notDeepEqual(entry.before, entry.after, `${action} before and after differ`);
      }
      const byApi = await admin('PUT', `/admin/entities/${merchant.entityId}/three-d-secure`, { requirement: 'always' });
      assert.equal(byApi.statusCode, 200);
      const [fromConsole, fromApi] = await auditRows('entities.three-d-secure');
      assert.deepEqual(Object.keys(fromConsole!.after as object).sort(), Object.keys(fromApi!.after as object).sort(), 'the same snapshot of the settings');

      const bad = await post(url('three-d-secure'), 'operator-admin', { requirement: `above:${CARD}` });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /id="requirement-error" class="field-error">above needs an ISO 4217 currency/);
      assert.equal(bad.body.includes(CARD), false);
      const badMode = await post(url('unknown-parameters'), 'operator-admin', { mode: 'sometimes' });
      assert.match(badMode.body, /id="mode-error" class="field-error">must be reject or ignore/);
      const badFlag = await post(url('legacy-auth'), 'operator-admin', { enabled: 'maybe' });
      assert.match(badFlag.body, /id="legacy-auth-enabled-error" class="field-error">must be true or false/);
      const badLimit = await post(url('throttling'), 'operator-admin', { maxRequests: CARD });
      assert.equal(badLimit.statusCode, 400);
      assert.match(badLimit.body, /id="maxRequests-error" class="field-error">must be a whole number from 1 to 10000000, or default/);
      assert.equal(badLimit.body.includes(CARD), false, 'a refused limit never echoes a card number');
      assert.equal((await post(url('throttling'), 'operator-admin', { maxRequests: '' })).statusCode, 303, "empty: the gateway's limit again");
      assert.match((await get(`/console/operator/entities/${merchant.entityId}`, 'operator-admin')).body, /Throttling<\/dt><dd>the gateway&#39;s|Throttling<\/dt><dd>the gateway's/);
      assert.equal((await post(`/console/operator/entities/${'e'.repeat(32)}/legacy-auth`, 'operator-admin', { enabled: 'true' })).statusCode, 404);
      assert.equal((await get(`/console/operator/entities/${'e'.repeat(32)}`, 'operator-admin')).statusCode, 404);
    });

    it('adds a route, rotates its credentials and disables it, the secret never on a page or in the audit log', async () => {
      const added = await post('/console/operator/routes', 'operator-admin', { system: 'test', entity: merchant.entityId, brand: 'VISA', currency: 'USD', connector: 'simulator', credentialName: ['apiKey', ''], credentialValue: [SECRET, ''] });
      assert.equal(added.statusCode, 303, added.body);
      const list = await get('/console/operator/routes', 'operator-read-only');
      assert.match(list.body, /VISA/);
      assert.equal(list.body.includes(SECRET), false);
      const newRoute = (await auditRows('routes.create')).at(-1)!;
      assert.equal(JSON.stringify(newRoute.after).includes(SECRET), false);
      assert.equal((newRoute.after as { paymentBrand: string }).paymentBrand, 'VISA');

      const badCurrency = await post('/console/operator/routes', 'operator-admin', { currency: 'euro', connector: 'simulator', credentialName: 'apiKey', credentialValue: SECRET });
      assert.equal(badCurrency.statusCode, 400);
      assert.match(badCurrency.body, /id="currency-error" class="field-error">must be an ISO 4217 code/);
      assert.equal(badCurrency.body.includes(SECRET), false, 'a refused form never echoes the secret');
      const nameless = await post('/console/operator/routes', 'operator-admin', { connector: 'simulator', credentialName: '', credentialValue: SECRET });
      assert.match(nameless.body, /id="credentials-error" class="field-error">secret 1 needs its name/);

      const form = await get(`/console/operator/routes/${routeId}/credentials`, 'operator-admin');
      assert.match(form.body, /type="password"/);
      assert.equal(form.body.includes(SECRET), false);
      const rotated = await post(`/console/operator/routes/${routeId}/credentials`, 'operator-admin', { credentialName: 'apiKey', credentialValue: 'the-new-secret-1' });
      assert.equal(rotated.statusCode, 303, rotated.body);
      const [rotation] = await auditRows('routes.rotate-credentials');
      assert.equal(rotation!.target_id, routeId);
      assert.equal(JSON.stringify(rotation).includes('the-new-secret-1'), false);
      const tooLong = await post(`/console/operator/routes/${routeId}/credentials`, 'operator-admin', { credentialName: 'apiKey', credentialValue: 'a\u0001b' });
      assert.equal(tooLong.statusCode, 400);
      assert.match(tooLong.body, /id="credentials-error" class="field-error">must be 1 to \d+ characters/);

      assert.equal((await post(`/console/operator/routes/${routeId}/disable`, 'operator-admin')).statusCode, 303);
      assert.equal((await auditRows('routes.disable'))[0]!.target_id, routeId);
      assert.equal((await post(`/console/operator/routes/${'0'.repeat(32)}/disable`, 'operator-admin')).statusCode, 404);
      assert.match((await get('/console/operator/routes', 'operator-admin')).body, /disabled \d{4}-/);
    });

    it("shows the vault's keys and rotates them, audited as the admin API's rotation", async () => {
      const page = await get('/console/operator/vault', 'operator-support');
      assert.match(page.body, /Current master key<\/dt><dd><code>[^<]+<\/code>/);
      assert.equal(page.body.includes('/vault/rotate'), false, 'support may not rotate');
      const rotated = await post('/console/operator/vault/rotate', 'operator-admin');
      assert.equal(rotated.statusCode, 303);
      assert.match(String(rotated.headers.location), /^\/console\/operator\/vault\?rewrapped=\d+&skipped=\d+$/);
      assert.match((await get(String(rotated.headers.location), 'operator-admin')).body, /Rotation done: \d+ data keys re-wrapped/);
      const [entry] = await auditRows('vault.rotate-key');
      assert.equal(entry!.target_kind, 'vault');
      assert.equal(entry!.actor_kind, 'user');
    });
  });
}
