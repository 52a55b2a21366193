import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pruneRiskAttemptsHandler } from '../../src/jobs/prune-risk-attempts.js';
import { RISK_CACHE_MS } from '../../src/operations/risk/risk-settings.js';
import { silentLogger, type ClaimedJob } from '../../src/jobs/job-types.js';
import { testDatabases } from '../support/databases.js';
import { postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { payWithRegistration, postRegistration } from '../support/registrations.js';
import { bearer, form, FORM_HEADERS, json, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { BROWSER } from '../support/three-d-secure.js';

const MASTER = { ...SAMPLE_CARD, paymentBrand: 'MASTER', 'card.number': '5454545454545454' };
const { 'card.cvv': _cvv, ...MASTER_REGISTRATION } = MASTER;
const RESULT_URL = 'https://shop.example.com/result';

function adminCall(t: TestApp, method: 'GET' | 'PUT' | 'POST', url: string, fields?: Record<string, string>) {
  return t.app.inject({ method, url, headers: { ...bearer(TEST_ADMIN_TOKEN), ...(fields ? FORM_HEADERS : {}) }, ...(fields ? { payload: form(fields) } : {}) });
}

function setRules(t: TestApp, entityId: string, rules: unknown, by = 'alice') {
  return adminCall(t, 'PUT', `/admin/entities/${entityId}/risk/rules`, { rules: JSON.stringify(rules), by });
}

function blacklist(t: TestApp, entityId: string, kind: string, value: string) {
  return adminCall(t, 'POST', `/admin/entities/${entityId}/risk/lists/black`, { kind, value, by: 'bob', reason: 'chargebacks' });
}

function pay(t: TestApp, merchant: Merchant, extra: Record<string, string> = {}, card: Record<string, string> = SAMPLE_CARD) {
  // The customer's name: the catalogue requires it with any other customer field.
  return postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', 'customer.givenName': 'Jane', 'customer.surname': 'Jones', ...card, ...extra });
}

async function withWebhook(t: TestApp, entityId: string): Promise<void> {
  // RISK comes only to a webhook that asks for it (docs/webhooks.md, "Notification types").
  await t.storage.query(`INSERT INTO webhooks (id, entity_id, url, secret, status, created_at, updated_at, notification_types) VALUES (md5(random()::text), $1, 'https://merchant.example.com/hook', repeat('a', 64), 'active', now(), now(), ARRAY['PAYMENT', 'RISK'])`, [entityId]);
}

async function notificationTypes(t: TestApp, transactionId: string): Promise<string[]> {
  const { rows } = await t.storage.query<{ type: string }>('SELECT type FROM notifications WHERE transaction_id = $1 ORDER BY type', [transactionId]);
  return rows.map((r) => r.type);
}

for (const db of testDatabases()) {
  describe(`risk checks through the API (${db.name})`, () => {
    let t: TestApp;
    let fresh: () => Promise<Merchant>;
    withAppAndMerchant(db.open, {}, (app) => {
      t = app;
      fresh = () => app.createMerchant('Risky shop');
    });

    it('accepts a plain payment and answers risk.score', async () => {
      const merchant = await fresh();
      const body = json(await pay(t, merchant));
      assert.match(body.result.code, SUCCESS_PATTERN);
      assert.equal(body.risk.score, '0');
      assert.deepEqual(json(await adminCall(t, 'GET', `/admin/transactions/${body.id}/risk`)).fired, []);
      assert.equal((await adminCall(t, 'GET', `/admin/transactions/${'0'.repeat(32)}/risk`)).statusCode, 404);
    });

    it('rejects a blacklisted e-mail with 800.300.200, stores the fired rules for the operator only and sends RISK', async () => {
      const merchant = await fresh();
      await withWebhook(t, merchant.entityId);
      assert.equal((await blacklist(t, merchant.entityId, 'email', 'Fraud@Example.com')).statusCode, 200);
      const response = await pay(t, merchant, { 'customer.email': 'fraud@example.com' });
      assert.equal(response.statusCode, 400);
      const body = json(response);
      assert.equal(body.result.code, '800.300.200');
      assert.equal(body.risk.score, '1000');
      assert.doesNotMatch(response.body, /"fired"|blacklist\.email/);
      const risk = json(await adminCall(t, 'GET', `/admin/transactions/${body.id}/risk`));
      assert.equal(risk.decision, 'reject');
      assert.deepEqual(risk.fired.map((f: { rule: string }) => f.rule), ['blacklist.email']);
      assert.deepEqual(await notificationTypes(t, body.id), ['PAYMENT', 'RISK']);
    });

    it('a blacklisted card is refused whatever its formatting, sent in clear or from a registration', async () => {
      const merchant = await fresh();
      const registration = json(await postRegistration(t, merchant, MASTER_REGISTRATION));
      assert.equal((await blacklist(t, merchant.entityId, 'card', '5454 5454-5454 5454')).statusCode, 200);
      const listed = json(await adminCall(t, 'GET', `/admin/entities/${merchant.entityId}/risk/lists/black`));
      assert.deepEqual(listed.entries.map((e: { shown: string }) => e.shown), ['545454…5454']);
      assert.doesNotMatch(JSON.stringify(listed), /5454545454545454/);
      assert.equal(json(await pay(t, merchant, {}, MASTER)).result.code, '800.300.101');
      assert.equal(json(await payWithRegistration(t, merchant, registration.id)).result.code, '800.300.101');
      // A payment's card number is digits only: a formatted one never reaches a connector either.
      const spaced = await pay(t, merchant, {}, { ...MASTER, 'card.number': '5454 5454 5454 5454' });
      assert.equal(spaced.statusCode, 400);
      // Another card of the same merchant still pays.
      assert.match(json(await pay(t, merchant)).result.code, SUCCESS_PATTERN);
      const { rows } = await t.storage.query<{ value: string }>('SELECT value FROM risk_list_entries WHERE entity_id = $1', [merchant.entityId]);
      assert.match(rows[0]!.value, /^[0-9a-f]{64}$/);
    });

    it('a channel inherits its merchant\'s blacklist', async () => {
      const merchant = await fresh();
      const channel = await t.createChannel(merchant.entityId);
      await blacklist(t, merchant.entityId, 'ip', '198.51.100.7');
      assert.equal(json(await pay(t, channel, { 'customer.ip': '198.51.100.7' })).result.code, '800.300.301');
    });

    it('an entry of a kind the lists did not hold counts at once where it was added, and on every other process within the cache time', async () => {
      const merchant = await fresh();
      assert.match(json(await pay(t, merchant, { 'customer.ip': '198.51.100.9' })).result.code, SUCCESS_PATTERN);
      // Another process (the command line, a second gateway) adds an IP entry: this process
      // still knows the merchant's lists as holding no IP, so it does not look IPs up yet.
      await t.storage.query(
        `INSERT INTO risk_list_entries (entity_id, list, kind, value, shown, added_by, added_at) VALUES ($1, 'black', 'ip', '198.51.100.9', '198.51.100.9', 'carol', now())`,
        [merchant.entityId],
      );
      assert.match(json(await pay(t, merchant, { 'customer.ip': '198.51.100.9' })).result.code, SUCCESS_PATTERN);
      t.clock.advance(RISK_CACHE_MS);
      assert.equal(json(await pay(t, merchant, { 'customer.ip': '198.51.100.9' })).result.code, '800.300.301');
      // Through this process's admin API: at once, for a kind not held before too.
      assert.equal((await blacklist(t, merchant.entityId, 'email', 'late@example.com')).statusCode, 200);
      assert.equal(json(await pay(t, merchant, { 'customer.email': 'late@example.com' })).result.code, '800.300.200');
    });

    it('reviews: success with the manual-review code and a RISK notification', async () => {
      const merchant = await fresh();
      await withWebhook(t, merchant.entityId);
      const response = await pay(t, merchant, { 'customer.email': 'review@risk.test' });
      assert.equal(response.statusCode, 200);
      const body = json(response);
      assert.equal(body.result.code, '000.400.000');
      assert.equal(body.risk.score, '500');
      assert.deepEqual(await notificationTypes(t, body.id), ['PAYMENT', 'RISK']);
    });

    it('steps up to 3-D Secure: a frictionless card authenticates, a card not enrolled is refused', async () => {
      const merchant = await fresh();
      const stepped = json(await pay(t, merchant, { 'customer.email': 'threeds@risk.test', shopperResultUrl: RESULT_URL, ...BROWSER }, { ...SAMPLE_CARD, 'card.number': '4200000000000091' }));
      assert.match(stepped.result.code, SUCCESS_PATTERN);
      assert.equal(stepped.threeDSecure.eci, '05');
      const refused = json(await pay(t, merchant, { 'customer.email': 'threeds@risk.test' }));
      assert.equal(refused.result.code, '000.400.109');
    });

    it('a rejection ends a payment the issuer would challenge: no challenge is opened, the connector is not asked', async () => {
      const merchant = await fresh();
      const challenged = { ...SAMPLE_CARD, 'card.number': '4200000000000000', 'customParameters[3DS2_enrolled]': 'true', 'customParameters[3DS2_flow]': 'challenge' };
      const response = await pay(t, merchant, { 'customer.email': 'blacklisted@risk.test', shopperResultUrl: RESULT_URL, ...BROWSER }, challenged);
      assert.equal(response.statusCode, 400);
      const body = json(response);
      assert.equal(body.result.code, '800.300.200');
      assert.equal(body.redirect, undefined);
      assert.equal((await t.storage.query('SELECT 1 FROM shopper_redirects WHERE transaction_id = $1', [body.id])).rows.length, 0);
      // Without the blacklisted e-mail the same request is sent to the ACS.
      const open = json(await pay(t, merchant, { shopperResultUrl: RESULT_URL, ...BROWSER }, challenged));
      assert.equal(open.result.code, '000.200.000');
      assert.ok(open.redirect.url);
    });

    it('a step-up the request cannot authenticate (an enrolled card, no browser data) is a stored decline with its id, replayed as it was', async () => {
      const merchant = await fresh();
      // An entity that never authenticates by itself: only the risk decision asks for 3-D Secure.
      assert.equal((await adminCall(t, 'PUT', `/admin/entities/${merchant.entityId}/three-d-secure`, { requirement: 'never' })).statusCode, 200);
      const enrolled = { ...SAMPLE_CARD, 'card.number': '4200000000000091' };
      const fields = { amount: '92.00', currency: 'EUR', paymentType: 'DB', 'customer.givenName': 'Jane', 'customer.surname': 'Jones', 'customer.email': 'threeds@risk.test', ...enrolled };
      const key = { 'Idempotency-Key': `step-up-${merchant.entityId}` };
      const first = await postPayment(t, merchant, fields, key);
      assert.equal(first.statusCode, 400);
      const body = json(first);
      assert.match(body.id, /^[0-9a-f]{32}$/, 'a payment, with its id: the row exists since the risk read');
      assert.equal(body.result.code, '100.370.101', 'the first missing field: the way back');
      assert.match(body.resultDetails.ExtendedDescription, /shopperResultUrl.*customer\.browser\./);
      assert.equal(body.risk.score, '300');
      const replay = await postPayment(t, merchant, fields, key);
      assert.equal(replay.statusCode, 400);
      assert.equal(json(replay).id, body.id);
      assert.equal(json(replay).result.code, '100.370.101');
      const { rows } = await t.storage.query<{ status: string; result_code: string }>('SELECT status, result_code FROM transactions WHERE id = $1', [body.id]);
      assert.deepEqual(rows, [{ status: 'rejected', result_code: '100.370.101' }]);
      assert.equal(json(await adminCall(t, 'GET', `/admin/transactions/${body.id}/risk`)).decision, 'threeDSecure');
      // Without the step-up the entity does not authenticate: the same card pays.
      assert.match(json(await pay(t, merchant, {}, enrolled)).result.code, SUCCESS_PATTERN);
      // Where the entity's own setting authenticates, the missing fields refuse the request
      // before anything is written, whatever risk would decide.
      const strict = await fresh();
      const refused = await postPayment(t, strict, fields);
      assert.equal(refused.statusCode, 400);
      // The error's id is the request's (every error body has one), never a transaction's.
      assert.equal((await t.storage.query('SELECT 1 FROM transactions WHERE id = $1', [json(refused).id])).rows.length, 0);
      assert.equal(json(refused).result.parameterErrors[0].name, 'shopperResultUrl');
      assert.equal((await t.storage.query('SELECT 1 FROM transactions WHERE entity_id = $1', [strict.entityId])).rows.length, 0);
    });

    it('velocity: the third attempt of an e-mail within the window is rejected with 800.120.103', async () => {
      const merchant = await fresh();
      const saved = await setRules(t, merchant.entityId, { velocity: [{ key: 'email', measure: 'attempts', windowMinutes: 60, max: 2, action: 'reject' }] });
      assert.equal(saved.statusCode, 200, saved.body);
      const email = { 'customer.email': 'jane@example.com' };
      assert.match(json(await pay(t, merchant, email)).result.code, SUCCESS_PATTERN);
      assert.match(json(await pay(t, merchant, email)).result.code, SUCCESS_PATTERN);
      assert.equal(json(await pay(t, merchant, email)).result.code, '800.120.103');
      // A whitelisted e-mail bypasses velocity.
      await adminCall(t, 'POST', `/admin/entities/${merchant.entityId}/risk/lists/white`, { kind: 'email', value: 'jane@example.com' });
      assert.match(json(await pay(t, merchant, email)).result.code, SUCCESS_PATTERN);
    });

    it('velocity of declines counts the rejected attempts of a card', async () => {
      const merchant = await fresh();
      await setRules(t, merchant.entityId, { velocity: [{ key: 'card', measure: 'declines', windowMinutes: 60, max: 1, action: 'reject' }] });
      assert.equal(json(await postPayment(t, merchant, { amount: '5.05', currency: 'EUR', paymentType: 'DB', ...MASTER })).result.code, '800.100.152');
      assert.match(json(await pay(t, merchant, {}, MASTER)).result.code, SUCCESS_PATTERN);
      assert.equal(json(await postPayment(t, merchant, { amount: '5.05', currency: 'EUR', paymentType: 'DB', ...MASTER })).result.code, '800.100.152');
      assert.equal(json(await pay(t, merchant, {}, MASTER)).result.code, '800.120.101');
    });

    it('amount limits, currency and country allow-lists, and the score threshold', async () => {
      const merchant = await fresh();
      await setRules(t, merchant.entityId, {
        amountLimits: [{ currency: 'EUR', max: '500.00' }],
        currencies: ['EUR', 'USD'],
        countries: ['DE', 'AT'],
        mismatches: [{ between: 'billing-shipping', action: 'score', points: 600 }],
        reviewAtScore: 500,
      });
      assert.equal(json(await postPayment(t, merchant, { amount: '500.01', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD })).result.code, '100.550.312');
      assert.equal(json(await postPayment(t, merchant, { amount: '10.00', currency: 'GBP', paymentType: 'DB', ...SAMPLE_CARD })).result.code, '600.200.500');
      assert.equal(json(await pay(t, merchant, { 'billing.country': 'FR' })).result.code, '100.400.021');
      const mismatch = json(await pay(t, merchant, { 'billing.country': 'DE', 'shipping.country': 'AT' }));
      assert.equal(mismatch.result.code, '000.400.000');
      assert.equal(mismatch.risk.score, '600');
    });

    it('a custom risk parameter rule sees risk.parameters', async () => {
      const merchant = await fresh();
      await setRules(t, merchant.entityId, { parameters: [{ name: 'USER_DATA1', equals: 'reseller', action: 'reject' }] });
      assert.equal(json(await pay(t, merchant, { 'risk.parameters[USER_DATA1]': 'reseller' })).result.code, '100.400.319');
    });

    it('rule sets are versioned with who and when; a bad one is refused naming each problem', async () => {
      const merchant = await fresh();
      await setRules(t, merchant.entityId, { reviewAtScore: 100 }, 'alice');
      await setRules(t, merchant.entityId, { reviewAtScore: 200 }, 'carol');
      const history = json(await adminCall(t, 'GET', `/admin/entities/${merchant.entityId}/risk/rules`));
      assert.deepEqual(history.versions.map((v: { version: number; changedBy: string }) => [v.version, v.changedBy]), [[2, 'carol'], [1, 'alice']]);
      const bad = await setRules(t, merchant.entityId, { velocity: [{ key: 'phone', measure: 'attempts', windowMinutes: 0, max: 1, action: 'block' }] });
      assert.equal(bad.statusCode, 400);
      const errors = json(bad).result.parameterErrors;
      assert.ok(errors.length >= 3 && errors.every((e: { name: string }) => e.name === 'rules'));
    });

    it('a disabled rule set checks nothing and answers no score', async () => {
      const merchant = await fresh();
      await setRules(t, merchant.entityId, { enabled: false });
      const body = json(await pay(t, merchant, { 'customer.email': 'blacklisted@risk.test' }));
      assert.match(body.result.code, SUCCESS_PATTERN);
      assert.equal(body.risk, undefined);
    });

    it('the documented test data triggers each decision', async () => {
      const merchant = await fresh();
      const cases: [Record<string, string>, string][] = [
        [{ 'customer.email': 'blacklisted@risk.test' }, '800.300.200'],
        [{ 'customer.ip': '192.0.2.66' }, '800.300.301'],
        [{ 'customer.ip': '192.0.2.77' }, '000.400.000'],
        [{ amount: '666.66' }, '100.400.319'],
        [{ amount: '555.55' }, '000.400.000'],
        [{ amount: '333.33' }, '000.400.109'],
      ];
      for (const [extra, code] of cases) assert.equal(json(await pay(t, merchant, extra)).result.code, code, JSON.stringify(extra));
      assert.equal(json(await pay(t, merchant, {}, { ...SAMPLE_CARD, 'card.number': '4444333322221111' })).result.code, '800.300.401');
    });

    it('the pruning job deletes attempts older than a week, keeps the rest, and is planned by the migration', async () => {
      const { rows: planned } = await t.storage.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE kind = 'prune-risk-attempts'");
      assert.equal(planned[0]!.n, 1);
      const now = t.clock.now();
      const old = new Date(now.getTime() - 8 * 24 * 3_600_000);
      await t.storage.query(`INSERT INTO risk_attempts (key_hash, at, amount_minor, currency, transaction_id) VALUES ('old', $1, 1, 'EUR', $2), ('new', $3, 1, 'EUR', $2)`, [old, 'f'.repeat(32), now]);
      const [result] = pruneRiskAttemptsHandler({ storage: t.storage, clock: t.clock, logger: silentLogger }).start([{} as ClaimedJob]);
      assert.ok((await result!).runAgainAt! > now);
      const { rows } = await t.storage.query<{ key_hash: string }>("SELECT key_hash FROM risk_attempts WHERE key_hash IN ('old', 'new')");
      assert.deepEqual(rows.map((r) => r.key_hash), ['new']);
    });

    it('a standalone risk request answers the score without a payment and records no attempt', async () => {
      const merchant = await fresh();
      const ask = (extra: Record<string, string>) => t.app.inject({ method: 'POST', url: '/v1/risk', headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS }, payload: form({ entityId: merchant.entityId, amount: '92.00', currency: 'EUR', 'customer.givenName': 'Jane', 'customer.surname': 'Jones', ...SAMPLE_CARD, ...extra }) });
      const accepted = json(await ask({}));
      assert.match(accepted.result.code, SUCCESS_PATTERN);
      assert.equal(accepted.risk.score, '0');
      const rejected = await ask({ 'customer.email': 'blacklisted@risk.test' });
      assert.equal(rejected.statusCode, 400);
      assert.equal(json(rejected).result.code, '800.300.200');
      const { rows } = await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE entity_id = $1', [merchant.entityId]);
      assert.equal(rows[0]!.n, 0);
    });
  });
}
