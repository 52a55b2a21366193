/**
 * The console's risk area (issue 32) through its routes, on both databases: every role allowed or
 * refused on each page and change, CSRF, a merchant's person never reaching another merchant's
 * lists or reviews (404), a card number never echoed (page, error, audit entry, change record),
 * the CSV import's per-line errors, the rule editor's validation, restoring a version, and the
 * manual review queue's accept and reject (a reversal), audited, with admin API parity.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mayPerform, type Action } from '../../../src/domain/access/permissions.js';
import { ROLES, isOperatorRole, type Role } from '../../../src/domain/access/roles.js';
import type { CreatedEntity } from '../../../src/operations/admin/create-entity.js';
import { testDatabases } from '../../support/databases.js';
import { consoleGet, consolePost, signInAs, type ConsoleSession } from '../../support/console.js';
import { cardPayment } from '../../support/payments.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../../support/test-app.js';

const CARD = '4012888888881881';
const PAGES: readonly { url: string; action: Action }[] = [
  { url: '/console/risk/lists', action: 'risk.view' },
  { url: '/console/risk/reviews', action: 'risk.view' },
  { url: '/console/risk/rules', action: 'risk.rules.view' },
];

for (const database of testDatabases()) {
  describe(`the console's risk pages (${database.name})`, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    let other: CreatedEntity;
    const sessions = new Map<string, Promise<ConsoleSession>>();
    const session = (role: Role, merchantId = merchant.entityId): Promise<ConsoleSession> => {
      const key = isOperatorRole(role) ? role : `${role}:${merchantId}`;
      if (!sessions.has(key)) sessions.set(key, signInAs(t, isOperatorRole(role) ? { role } : { role, merchantId }));
      return sessions.get(key)!;
    };
    const get = async (url: string, role: Role, merchantId = merchant.entityId) => consoleGet(t, await session(role, merchantId), url);
    const post = async (url: string, role: Role, fields: Record<string, string>, merchantId = merchant.entityId) => consolePost(t, await session(role, merchantId), url, fields);
    const auditRows = async (action: string) => (await t.storage.query<{ after: unknown; actor: string }>('SELECT after, actor FROM audit_log WHERE action = $1 ORDER BY seq', [action])).rows;
    const reviewPayment = async (entity: CreatedEntity) => {
      const body = json(await cardPayment(t, entity, 'PA', '555.55'));
      assert.equal(body.result.code, '000.400.000', JSON.stringify(body));
      return String(body.id);
    };

    before(async () => {
      t = await startTestApp(await database.open());
      merchant = await t.createMerchant('Shop');
      other = await t.createMerchant('Other');
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
        }
      }
    });

    it('lets only the roles with risk.lists.manage add an entry, and refuses a post without the CSRF token', async () => {
      for (const role of ROLES) {
        const fields = { entity: merchant.entityId, form: 'value', list: 'black', kind: 'email', value: `${role}@fraud.test`, ...(isOperatorRole(role) ? { merchant: merchant.entityId } : {}) };
        const response = await post('/console/risk/lists', role, fields);
        assert.equal(response.statusCode, mayPerform(role, 'risk.lists.manage') ? 303 : 403, `${role}: ${response.body.slice(0, 200)}`);
      }
      const noCsrf = await post('/console/risk/lists', 'merchant-admin', { _csrf: '', entity: merchant.entityId, form: 'value', list: 'black', kind: 'email', value: 'x@fraud.test' });
      assert.equal(noCsrf.statusCode, 403);
      const page = await get('/console/risk/lists', 'merchant-admin');
      assert.match(page.body, /merchant-admin@fraud\.test/);
      assert.doesNotMatch(page.body, /x@fraud\.test/);
    });

    it('adds a card by its fingerprint, never echoing the number: not in the page, an error, the audit entry or the change record', async () => {
      const added = await post('/console/risk/lists', 'merchant-admin', { entity: merchant.entityId, form: 'card', list: 'black', kind: 'card', value: CARD.replace(/(\d{4})/g, '$1 ').trim(), reason: 'stolen' });
      assert.equal(added.statusCode, 303);
      const page = await get(String(added.headers.location), 'merchant-admin');
      assert.match(page.body, /401288…1881/);
      assert.match(page.body, /was added/);
      assert.doesNotMatch(page.body, new RegExp(CARD));
      const refused = await post('/console/risk/lists', 'merchant-admin', { entity: merchant.entityId, form: 'card', list: 'black', kind: 'card', value: '4012888888881882', reason: 'typo 4012888888881882' });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.body, /valid check digit/);
      assert.doesNotMatch(refused.body, /4012888888881882|401288888888/);
      const audit = JSON.stringify(await auditRows('risk.lists.add'));
      assert.match(audit, /401288…1881/);
      const changes = JSON.stringify((await t.storage.query('SELECT detail FROM risk_changes')).rows);
      const entries = JSON.stringify((await t.storage.query('SELECT value, shown FROM risk_list_entries')).rows);
      for (const text of [audit, changes, entries]) assert.doesNotMatch(text, new RegExp(CARD));
      // The payment with that card is now refused by the list, whatever its formatting.
      const paid = json(await cardPayment(t, merchant, 'DB', '10.00', { 'card.number': CARD }));
      assert.equal(paid.result.code, '800.300.101');
    });

    it('removes an entry by its handle, audited', async () => {
      const page = await get('/console/risk/lists', 'merchant-admin');
      const handle = /name="entry" value="([0-9a-f]{32})"/.exec(page.body)![1]!;
      const removed = await post('/console/risk/lists/remove', 'operator-support', { merchant: merchant.entityId, entity: merchant.entityId, list: 'black', entry: handle });
      assert.equal(removed.statusCode, 303);
      assert.match(String(removed.headers.location), /done=removed/);
      assert.equal((await auditRows('risk.lists.remove')).length, 1);
      const again = await post('/console/risk/lists/remove', 'operator-support', { merchant: merchant.entityId, entity: merchant.entityId, list: 'black', entry: handle });
      assert.equal(again.statusCode, 404);
    });

    it('imports a CSV, refusing it whole with each bad line by its number and no value echoed', async () => {
      const bad = await post('/console/risk/lists/import', 'merchant-admin', { entity: merchant.entityId, list: 'white', csv: 'kind,value,reason\nemail,vip@shop.test,vip\nfoo,bar\ncard,4012888888881882\n' });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /line 3: kind must be one of/);
      assert.match(bad.body, /line 4: value must be a card number/);
      assert.doesNotMatch(bad.body, /4012888888881882|vip@shop\.test/);
      const good = await post('/console/risk/lists/import', 'merchant-admin', { entity: merchant.entityId, list: 'white', csv: `email,vip@shop.test,vip\ncard,${CARD},regular\nip,203.0.113.9\n` });
      assert.equal(good.statusCode, 303);
      assert.match(String(good.headers.location), /done=imported-3-0/);
      const audit = JSON.stringify(await auditRows('risk.lists.import'));
      assert.match(audit, /card 401288…1881/);
      assert.doesNotMatch(audit, new RegExp(CARD));
    });

    it("answers another merchant's entity as a missing one (404) to a merchant's person", async () => {
      const page = await get(`/console/risk/lists?entity=${other.entityId}`, 'merchant-admin');
      assert.equal(page.statusCode, 404);
      const channel = await t.createChannel(merchant.entityId, 'Web shop');
      const own = await post('/console/risk/lists', 'merchant-admin', { entity: channel.entityId, form: 'value', list: 'white', kind: 'country', value: 'at' });
      assert.equal(own.statusCode, 303, 'a channel of their own merchant is theirs');
      assert.match((await get(`/console/risk/lists?entity=${channel.entityId}`, 'merchant-admin')).body, /<code>AT<\/code>/);
      const change = await post('/console/risk/lists', 'merchant-admin', { entity: other.entityId, form: 'value', list: 'black', kind: 'email', value: 'a@b.test' });
      assert.equal(change.statusCode, 404);
      const rules = await post('/console/risk/rules', 'operator-admin', { merchant: merchant.entityId, entity: other.entityId, rules: '{}' });
      assert.equal(rules.statusCode, 404);
    });

    it('saves a rule set with the validation of the admin API, names each problem by its place, and restores an earlier version', async () => {
      const fields = { merchant: merchant.entityId, entity: merchant.entityId };
      for (const role of ROLES) {
        if (mayPerform(role, 'risk.rules.manage')) continue;
        assert.equal((await post('/console/risk/rules', role, { ...fields, rules: '{}' })).statusCode, 403, role);
      }
      const invalid = await post('/console/risk/rules', 'operator-admin', { ...fields, rules: '{"reviewAtScore": "x", "velocity": [{"key": "card", "measure": "attempts", "windowMinutes": 0, "max": 5, "action": "reject"}]}' });
      assert.equal(invalid.statusCode, 400);
      assert.match(invalid.body, /<code>reviewAtScore<\/code>/);
      assert.match(invalid.body, /<code>velocity\[0\]\.windowMinutes<\/code>/);
      assert.match(invalid.body, /&quot;reviewAtScore&quot;: &quot;x&quot;/, 'the text comes back for fixing');
      const first = await post('/console/risk/rules', 'operator-admin', { ...fields, rules: '{"reviewAtScore": 400}' });
      assert.equal(first.statusCode, 303);
      assert.equal((await post('/console/risk/rules', 'operator-admin', { ...fields, rules: '{"reviewAtScore": 700}' })).statusCode, 303);
      const restored = await post('/console/risk/rules/restore', 'operator-admin', { ...fields, version: '1' });
      assert.equal(restored.statusCode, 303);
      assert.match(String(restored.headers.location), /done=restored-1/);
      const history = json(await t.app.inject({ method: 'GET', url: `/admin/entities/${merchant.entityId}/risk/rules`, headers: bearer(TEST_ADMIN_TOKEN) }));
      assert.equal(history.versions[0].version, 3);
      assert.equal(history.versions[0].rules.reviewAtScore, 400);
      const page = await get(`/console/risk/rules?merchant=${merchant.entityId}`, 'operator-read-only');
      assert.match(page.body, /Version 3, saved by/);
      assert.match(page.body, /reviewAtScore/);
      assert.doesNotMatch(page.body, /Restore version/, 'read-only sees no restore');
      const audit = await auditRows('risk.rules.restore');
      assert.equal(audit.length, 1);
      assert.equal((await post('/console/risk/rules/restore', 'operator-admin', { ...fields, version: '99' })).statusCode, 404);
      // Back to the default rules for the payments below.
      await post('/console/risk/rules', 'operator-admin', { ...fields, rules: '{}' });
    });

    it('queues the payments the rules sent to review, and accepts one with a reason, audited, once', async () => {
      const id = await reviewPayment(merchant);
      const otherId = await reviewPayment(other);
      const queue = await get('/console/risk/reviews', 'merchant-admin');
      assert.match(queue.body, new RegExp(id));
      assert.doesNotMatch(queue.body, new RegExp(otherId), "another merchant's payment is not listed");
      assert.doesNotMatch(queue.body, /test\.amount=555\.55/, "a merchant's person sees the score, not the rules");
      assert.match((await get('/console/risk/reviews', 'operator-read-only')).body, /test\.amount=555\.55/);
      for (const role of ROLES) {
        if (mayPerform(role, 'risk.review')) continue;
        assert.equal((await post(`/console/risk/reviews/${id}`, role, { decision: 'accept', reason: 'checked' })).statusCode, 403, role);
      }
      const noReason = await post(`/console/risk/reviews/${id}`, 'merchant-admin', { decision: 'accept', reason: '' });
      assert.equal(noReason.statusCode, 400);
      assert.match(noReason.body, /must be 3 to 500 characters/);
      const foreign = await post(`/console/risk/reviews/${otherId}`, 'merchant-admin', { decision: 'accept', reason: 'not mine' });
      assert.equal(foreign.statusCode, 404);
      const accepted = await post(`/console/risk/reviews/${id}`, 'merchant-admin', { decision: 'accept', reason: 'customer confirmed by phone' });
      assert.equal(accepted.statusCode, 303);
      const after = await get('/console/risk/reviews?done=accept', 'merchant-admin');
      assert.match(after.body, /Accepted: the payment stands/);
      assert.match(after.body, /customer confirmed by phone/);
      const twice = await post(`/console/risk/reviews/${id}`, 'operator-admin', { decision: 'reject', reason: 'second thoughts' });
      assert.equal(twice.statusCode, 400);
      assert.match(twice.body, /decided already/);
      const audit = await auditRows('risk.review.accept');
      assert.equal(audit.length, 1);
      assert.deepEqual(audit[0]!.after, { decision: 'accept', reason: 'customer confirmed by phone' });
      // The accepted preauthorization is capturable as usual.
      const captured = await t.app.inject({ method: 'POST', url: `/v1/payments/${id}`, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS }, payload: form({ entityId: merchant.entityId, paymentType: 'CP', amount: '555.55', currency: 'EUR' }) });
      assert.match(json(captured).result.code, /^000\.(000|100)/);
    });

    it('rejects a payment by reversing it, through the console and the admin API alike', async () => {
      const id = await reviewPayment(merchant);
      const rejected = await post(`/console/risk/reviews/${id}`, 'operator-support', { decision: 'reject', reason: 'card testing pattern' });
      assert.equal(rejected.statusCode, 303);
      assert.match(String(rejected.headers.location), /done=reject$/);
      const { rows } = await t.storage.query<{ payment_type: string; status: string }>('SELECT payment_type, status FROM transactions WHERE parent_id = $1', [id]);
      assert.deepEqual(rows.map((r) => [r.payment_type, r.status]), [['RV', 'success']]);
      const review = (await t.storage.query<{ decision: string; reversal_id: string }>('SELECT decision, reversal_id FROM risk_reviews WHERE transaction_id = $1', [id])).rows[0]!;
      assert.equal(review.decision, 'rejected');
      assert.equal((await auditRows('risk.review.reject')).length, 1);

      const viaApi = await reviewPayment(other);
      const listed = json(await t.app.inject({ method: 'GET', url: '/admin/risk/reviews', headers: bearer(TEST_ADMIN_TOKEN) }));
      assert.ok(listed.waiting.some((w: { transactionId: string }) => w.transactionId === viaApi));
      const decided = await t.app.inject({ method: 'POST', url: `/admin/transactions/${viaApi}/risk/review`, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form({ decision: 'reject', reason: 'api test' }) });
      assert.equal(decided.statusCode, 200, decided.body);
      assert.equal(json(decided).reversal.resultCode.slice(0, 3), '000');
      const bad = await t.app.inject({ method: 'POST', url: `/admin/transactions/${viaApi}/risk/review`, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form({ decision: 'maybe', reason: 'api test' }) });
      assert.equal(bad.statusCode, 400);
      assert.equal(json(bad).result.parameterErrors[0].name, 'decision');
    });
  });
}
