import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDirectAdmin } from '../../src/cli/direct-admin.js';
import { loadConfig } from '../../src/config/load-config.js';
import { describe, it } from 'node:test';
import { ASYNCHRONOUS_BRANDS } from '../../src/domain/payment-brands.js';
import { expireRedirects } from '../../src/operations/redirects/expire-redirects.js';
import { addPendingChecks } from '../../src/storage/repositories/pending-checks.js';
import { claimRedirectGrouped, lookUpRedirect } from '../../src/storage/repositories/shopper-redirects.js';
import { testDatabases } from '../support/databases.js';
import { resolutionWorker } from '../support/resolution.js';
import { getPayment, postPayment, referencePayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { BROWSER } from '../support/three-d-secure.js';

const RESULT_URL = 'https://shop.example.com/result?order=17';

/** Sample values for the fields asynchronous brands ask for. */
const SAMPLES: Record<string, string> = {
  'bankAccount.country': 'DE',
  'bankAccount.bankName': 'ING_TEST',
  'bankAccount.holder': 'Jane Jones',
  'bankAccount.bic': 'TESTDETT421',
  'bankAccount.iban': 'DE14940593100000012346',
  'customer.givenName': 'Jane',
  'customer.surname': 'Jones',
  'customer.email': 'jane@example.com',
  'customer.ip': '123.123.123.123',
  'customer.merchantCustomerId': '123456',
  'customer.identificationDocId': '11111111111',
  'customer.identificationDocType': 'TAXSTATEMENT',
  'billing.country': 'DE',
  'billing.street1': 'Amazonstrasse 1',
  'billing.city': 'Berlin',
  'billing.postcode': '10115',
  'billing.state': 'BE',
  'cart.items[0].name': 'Product 1',
  'cart.items[0].merchantItemId': '1',
  'cart.items[0].quantity': '1',
  'cart.items[0].price': '92.00',
  'cart.items[0].tax': '19.00',
};


function asyncPayment(t: TestApp, merchant: Merchant, brand: string, extra: Record<string, string> = {}) {
  const entry = ASYNCHRONOUS_BRANDS.find((b) => b.brand === brand)!;
  const required = Object.fromEntries(entry.required.map((name) => [name, SAMPLES[name] ?? 'x']));
  return postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', paymentBrand: brand, shopperResultUrl: RESULT_URL, ...required, ...extra });
}

function cardWith3ds(t: TestApp, merchant: Merchant, number: string, extra: Record<string, string> = {}) {
  return postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, 'card.number': number, shopperResultUrl: RESULT_URL, ...BROWSER, ...extra });
}

/** Submits a simulated page's button, as the shopper's browser does. */
function choose(t: TestApp, redirectUrl: string, outcome: string) {
  return t.app.inject({ method: 'POST', url: new URL(redirectUrl).pathname, headers: FORM_HEADERS, payload: form({ outcome }) });
}

/** The operator's 3-D Secure setting of an entity, through the admin API. */
function setRequirement(t: TestApp, entityId: string, requirement: string) {
  return t.app.inject({ method: 'PUT', url: `/admin/entities/${entityId}/three-d-secure`, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form({ requirement }) });
}

async function notificationsOf(t: TestApp, transactionId: string): Promise<{ action: string | null }[]> {
  const { rows } = await t.storage.query<{ action: string | null }>('SELECT action FROM notifications WHERE transaction_id = $1 ORDER BY created_at', [transactionId]);
  return rows;
}

async function withWebhook(t: TestApp, merchant: Merchant): Promise<void> {
  // A webhook makes PAYMENT notifications be written (the outbox writes none without a target).
  await t.storage.query(`INSERT INTO webhooks (id, entity_id, url, secret, status, created_at, updated_at) VALUES (md5(random()::text), $1, 'https://merchant.example.com/hook', repeat('a', 64), 'active', now(), now())`, [merchant.entityId]);
}

for (const db of testDatabases()) {
  describe(`asynchronous payments and 3-D Secure (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, {}, (app, created) => {
      t = app;
      merchant = created;
    });

    for (const entry of ASYNCHRONOUS_BRANDS) {
      it(`${entry.brand}: the first answer is pending with a redirect`, async () => {
        const response = await asyncPayment(t, merchant, entry.brand);
        assert.equal(response.statusCode, 200, response.body);
        const body = json(response);
        assert.equal(body.result.code, '000.200.000');
        assert.equal(body.paymentBrand, entry.brand);
        assert.equal(body.paymentType, 'DB');
        assert.equal(body.redirect.method, entry.redirectMethod);
        assert.match(body.redirect.url, /^http:\/\/localhost(:\d+)?\/v1\/simulator\/provider\/[0-9a-f]{32}$/);
        assert.ok(Array.isArray(body.redirect.parameters) && body.redirect.parameters.length > 0);
        for (const p of body.redirect.parameters) assert.equal(typeof p.name === 'string' && typeof p.value === 'string', true);
        // GET answers the same, until the shopper is back.
        assert.deepEqual(json(await getPayment(t, merchant, body.id)).redirect, body.redirect);
      });
    }

    it('an asynchronous brand without shopperResultUrl is refused, naming it', async () => {
      const response = await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'PAYPAL' });
      assert.equal(response.statusCode, 400);
      assert.ok(json(response).result.parameterErrors.some((e: { name: string }) => e.name === 'shopperResultUrl'));
    });

    for (const [choice, pattern] of [['approve', SUCCESS_PATTERN], ['decline', /^800\.100\.152$/], ['cancel', /^100\.396\.101$/]] as const) {
      it(`the provider page's ${choice} ends the payment, sends the shopper back and notifies UPDATED once`, async () => {
        await withWebhook(t, merchant);
        const body = json(await asyncPayment(t, merchant, 'PAYPAL'));
        const page = await t.app.inject({ method: 'GET', url: new URL(body.redirect.url).pathname, headers: { 'accept-language': 'de-DE,de;q=0.9' } });
        assert.equal(page.statusCode, 200);
        assert.match(page.headers['content-type'] as string, /text\/html/);
        assert.match(page.headers['content-security-policy'] as string, /default-src 'none'/);
        assert.match(page.body, /<html lang="de"/);
        for (const value of ['approve', 'decline', 'cancel']) assert.match(page.body, new RegExp(`name="outcome"[^>]*value="${value}"`));
        const done = await choose(t, body.redirect.url, choice);
        assert.equal(done.statusCode, 303);
        const location = new URL(done.headers.location as string);
        assert.equal(location.origin + location.pathname, 'https://shop.example.com/result');
        assert.equal(location.searchParams.get('order'), '17');
        assert.equal(location.searchParams.get('id'), body.id);
        assert.equal(location.searchParams.get('resourcePath'), `/v1/payments/${body.id}`);
        const after = json(await getPayment(t, merchant, body.id));
        assert.match(after.result.code, pattern);
        assert.equal(after.redirect, undefined);
        const query = json(await t.app.inject({ method: 'GET', url: `/v1/query/${body.id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) }));
        assert.equal(query.payments[0].result.code, after.result.code);
        const actions = (await notificationsOf(t, body.id)).map((n) => n.action);
        assert.equal(actions.filter((a) => a === 'UPDATED').length, 1);
        // The link works once: a replay changes nothing.
        const replay = await choose(t, body.redirect.url, 'approve');
        assert.equal(replay.statusCode, 410);
        // The used link's page leads back to the shop's result page of this payment.
        assert.ok(replay.body.includes(`href="${done.headers.location!.toString().replaceAll('&', '&amp;')}"`), replay.body);
        assert.equal(json(await getPayment(t, merchant, body.id)).result.code, after.result.code);
      });
    }

    it("no page of a server-to-server payment may be framed; a completion from inside a frame hands the result page to the frame's parent", async () => {
      const body = json(await asyncPayment(t, merchant, 'PAYPAL'));
      const page = await t.app.inject({ method: 'GET', url: new URL(body.redirect.url).pathname });
      assert.match(page.headers['content-security-policy'] as string, /frame-ancestors 'none';/);
      assert.equal(page.headers['x-frame-options'], 'DENY');
      // A widget's overlay (docs/widget.md): the browser says the form was posted from a frame.
      const done = await t.app.inject({ method: 'POST', url: new URL(body.redirect.url).pathname, headers: { ...FORM_HEADERS, 'sec-fetch-dest': 'iframe' }, payload: form({ outcome: 'approve' }) });
      assert.equal(done.statusCode, 200);
      const policy = done.headers['content-security-policy'] as string;
      assert.match(policy, /frame-ancestors 'self' https:\/\/shop\.example\.com;/);
      const nonce = /script-src 'nonce-([^']+)'/.exec(policy)![1];
      const location = `${RESULT_URL}&id=${body.id}&resourcePath=${encodeURIComponent(`/v1/payments/${body.id}`)}`;
      const message = JSON.stringify({ tag: 'wpwl', type: 'return', url: location });
      // To the widget's page, or to the gateway's own page that holds a real ACS in the overlay (challenge-start-page.ts).
      assert.ok(done.body.includes(`<script nonce="${nonce}">parent.postMessage(${message}, "https://shop.example.com");parent.postMessage(${message}, location.origin);</script>`), done.body);
      assert.match(json(await getPayment(t, merchant, body.id)).result.code, SUCCESS_PATTERN);
    });

    it('the UPDATED notification of a redirect payment also goes to its notificationUrl', async () => {
      const url = 'https://merchant.example.com/notify';
      const body = json(await asyncPayment(t, merchant, 'PAYPAL', { notificationUrl: url }));
      assert.equal(body.result.code, '000.200.000', JSON.stringify(body));
      await choose(t, body.redirect.url, 'approve');
      const { rows } = await t.storage.query<{ action: string | null }>(
        'SELECT n.action FROM webhook_deliveries d JOIN notifications n ON n.id = d.notification_id WHERE n.transaction_id = $1 AND d.url = $2 ORDER BY n.created_at',
        [body.id, url],
      );
      assert.deepEqual(rows.map((r) => r.action), [null, 'UPDATED']);
    });

    it('a link only works for its own kind of page, and an unknown link is not found', async () => {
      const body = json(await asyncPayment(t, merchant, 'PAYPAL'));
      const id = new URL(body.redirect.url).pathname.split('/').pop();
      assert.equal((await t.app.inject({ method: 'POST', url: `/v1/simulator/acs/${id}`, headers: FORM_HEADERS, payload: form({ outcome: 'Y' }) })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/simulator/acs/${id}` })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/simulator/provider/${'0'.repeat(32)}` })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/simulator/provider/..%2f..%2fetc' })).statusCode, 404);
      // A challenge ends only through its ACS page's choices, not through the generic return.
      const challenge = json(await cardWith3ds(t, merchant, '4200000000000042'));
      const challengeId = new URL(challenge.redirect.url).pathname.split('/').pop();
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/redirects/${challengeId}/return` })).statusCode, 404);
      assert.equal(json(await getPayment(t, merchant, challenge.id)).result.code, '000.200.000');
      const csp = (await t.app.inject({ method: 'GET', url: new URL(challenge.redirect.url).pathname })).headers['content-security-policy'] as string;
      assert.match(csp, /form-action 'self' https:\/\/shop\.example\.com;/);
      // An outcome that is not a button of the page shows the page again.
      assert.equal((await choose(t, body.redirect.url, 'Y')).statusCode, 400);
      assert.equal(json(await getPayment(t, merchant, body.id)).result.code, '000.200.000');
    });

    it('a payment waiting for its shopper is not handed to the status checks', async () => {
      await expireRedirectsNow();
      const body = json(await asyncPayment(t, merchant, 'PAYPAL'));
      t.clock.advance(10 * 60_000);
      await addPendingChecks(t.storage, { createdBefore: t.clock.now(), now: t.clock.now(), limit: 1000 });
      const { rows } = await t.storage.query('SELECT 1 FROM pending_checks WHERE transaction_id = $1', [body.id]);
      assert.equal(rows.length, 0);
    });

    it('a pending payment cannot be captured or refunded', async () => {
      const pa = json(await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'PA', paymentBrand: 'PAYPAL', shopperResultUrl: RESULT_URL }));
      assert.equal(pa.result.code, '000.200.000');
      const capture = await referencePayment(t, merchant, pa.id, 'CP', '92.00');
      assert.equal(capture.statusCode, 400);
      const db = json(await asyncPayment(t, merchant, 'PAYPAL'));
      const refund = await referencePayment(t, merchant, db.id, 'RF', '10.00');
      assert.equal(refund.statusCode, 400);
    });

    async function expireRedirectsNow(): Promise<void> {
      t.clock.advance(31 * 60_000);
      await expireRedirects(t.app.gateway.payments, 1000);
    }

    it('a redirect nobody completes expires: the provider is asked, its answer (never paid) rejects with a notification, and the link is gone', async () => {
      await withWebhook(t, merchant);
      // Other tests' redirects share the database: expire theirs first.
      await expireRedirectsNow();
      const body = json(await asyncPayment(t, merchant, 'PAYPAL'));
      t.clock.advance(29 * 60_000);
      await expireRedirects(t.app.gateway.payments, 100);
      assert.equal(json(await getPayment(t, merchant, body.id)).result.code, '000.200.000');
      t.clock.advance(2 * 60_000);
      assert.equal((await t.app.inject({ method: 'GET', url: new URL(body.redirect.url).pathname })).statusCode, 410);
      assert.ok((await expireRedirects(t.app.gateway.payments, 100)) >= 1);
      // The shopper may have paid at the provider: the expiry hands the payment to the status checks.
      assert.equal(json(await getPayment(t, merchant, body.id)).result.code, '000.200.000');
      await resolutionWorker(t).drain();
      const after = json(await getPayment(t, merchant, body.id));
      assert.equal(after.result.code, '100.396.104');
      assert.equal(after.redirect, undefined);
      assert.deepEqual((await notificationsOf(t, body.id)).filter((n) => n.action === 'UPDATED').length, 1);
      assert.equal((await choose(t, body.redirect.url, 'approve')).statusCode, 410);
      assert.equal(await expireRedirects(t.app.gateway.payments, 100), 0);
    });

    it('the same redirect completed twice at once: one final state, one UPDATED notification', async () => {
      await withWebhook(t, merchant);
      for (let round = 0; round < 5; round++) {
        const body = json(await asyncPayment(t, merchant, 'PAYPAL'));
        const answers = await Promise.all([choose(t, body.redirect.url, 'approve'), choose(t, body.redirect.url, 'decline'), choose(t, body.redirect.url, 'cancel')]);
        assert.equal(answers.filter((a) => a.statusCode === 303).length, 1, answers.map((a) => a.statusCode).join());
        assert.equal(answers.filter((a) => a.statusCode === 410).length, 2);
        const after = json(await getPayment(t, merchant, body.id));
        assert.notEqual(after.result.code, '000.200.000');
        assert.equal((await notificationsOf(t, body.id)).filter((n) => n.action === 'UPDATED').length, 1);
      }
    });

    it('claims grouped in one statement: of three claims of one redirect exactly one takes it, and each of two redirects is taken by its own claim', async () => {
      const ids = async () => {
        const body = json(await asyncPayment(t, merchant, 'PAYPAL'));
        return new URL(body.redirect.url).pathname.split('/').at(-1)!;
      };
      const [one, two] = [await ids(), await ids()];
      const now = t.clock.now();
      // The first claim goes out alone; the four asked meanwhile share the next statement.
      const claims = await Promise.all([
        claimRedirectGrouped(t.storage, one, 'approve', now), claimRedirectGrouped(t.storage, one, 'decline', now),
        claimRedirectGrouped(t.storage, one, 'cancel', now), claimRedirectGrouped(t.storage, two, 'decline', now), claimRedirectGrouped(t.storage, two, 'decline', now),
      ]);
      assert.deepEqual(claims.map((c) => c?.choice ?? null), ['approve', null, null, 'decline', null]);
      const [found, missing] = await Promise.all([lookUpRedirect(t.storage, two), lookUpRedirect(t.storage, 'f'.repeat(32))]);
      assert.equal(found?.state, 'completing');
      assert.equal(found?.choice, 'decline');
      assert.equal(missing, undefined);
    });

    it('a completion racing the expiry job: one final state, one UPDATED notification', async () => {
      await withWebhook(t, merchant);
      await expireRedirectsNow();
      const payments = [];
      for (let i = 0; i < 6; i++) payments.push(json(await asyncPayment(t, merchant, 'PAYPAL')));
      // Just before the end of their time: completions and the expiry job at once.
      t.clock.advance(30 * 60_000 - 1);
      const completions = payments.map((p) => choose(t, p.redirect.url, 'approve'));
      t.clock.advance(1);
      const [answers] = await Promise.all([Promise.all(completions), expireRedirects(t.app.gateway.payments, 100)]);
      await resolutionWorker(t).drain();
      for (const [i, p] of payments.entries()) {
        const after = json(await getPayment(t, merchant, p.id));
        assert.ok([answers[i]!.statusCode].every((status) => status === 303 || status === 410));
        assert.ok(after.result.code === '100.396.104' || SUCCESS_PATTERN.test(after.result.code), after.result.code);
        assert.equal((await notificationsOf(t, p.id)).filter((n) => n.action === 'UPDATED').length, 1);
        const { rows } = await t.storage.query<{ state: string }>('SELECT state FROM shopper_redirects WHERE transaction_id = $1', [p.id]);
        assert.ok(['completed', 'expired'].includes(rows[0]!.state));
      }
    });

    // 3-D Secure v2: the test cards of compatibility.md.
    const FRICTIONLESS = [
      ['4200000000000091', 'Y', '05'],
      ['4200000000000109', 'A', '06'],
      ['4200000000000026', 'Y', '05'],
      ['4200000000000059', 'A', '06'],
      ['5200000000000007', 'Y', '02'],
      ['5200000000000023', 'A', '01'],
    ] as const;
    for (const [number, status, eci] of FRICTIONLESS) {
      it(`3DS frictionless card ${number}: decided in the first answer with a threeDSecure block (${status}, ECI ${eci})`, async () => {
        const response = await cardWith3ds(t, merchant, number, { paymentBrand: number.startsWith('5') ? 'MASTER' : 'VISA' });
        assert.equal(response.statusCode, 200, response.body);
        const body = json(response);
        assert.match(body.result.code, SUCCESS_PATTERN);
        assert.equal(body.threeDSecure.authenticationStatus, status);
        assert.equal(body.threeDSecure.eci, eci);
        assert.match(body.threeDSecure.verificationId, /^[A-Za-z0-9+/=]{28}$/);
        assert.match(body.threeDSecure.dsTransactionId, /^[0-9a-f-]{36}$/);
        assert.equal(body.threeDSecure.version, '2.2.0');
        assert.equal(body.redirect, undefined);
      });
    }

    for (const number of ['4200000000000042', '4200000000000067', '4200000000000018', '4200000000000075']) {
      it(`3DS challenge card ${number}: pending with a POST redirect to the ACS`, async () => {
        const body = json(await cardWith3ds(t, merchant, number));
        assert.equal(body.result.code, '000.200.000');
        assert.equal(body.redirect.method, 'POST');
        assert.match(body.redirect.url, /\/v1\/simulator\/acs\/[0-9a-f]{32}$/);
        assert.deepEqual(body.redirect.parameters.map((p: { name: string }) => p.name), ['creq', 'threeDSSessionData']);
        assert.equal(JSON.stringify(body).includes(number), false);
      });
    }

    for (const [choice, pattern, status] of [['Y', SUCCESS_PATTERN, 'Y'], ['N', /^800\.400\.200$/, 'N'], ['R', /^100\.390\.114$/, 'R'], ['U', SUCCESS_PATTERN, 'U'], ['cancel', /^100\.390\.124$/, 'N']] as const) {
      it(`a challenge answered ${choice} ends the payment accordingly`, async () => {
        await withWebhook(t, merchant);
        const body = json(await cardWith3ds(t, merchant, '4200000000000042'));
        const page = await t.app.inject({ method: 'POST', url: new URL(body.redirect.url).pathname, headers: FORM_HEADERS, payload: form(Object.fromEntries(body.redirect.parameters.map((p: { name: string; value: string }) => [p.name, p.value]))) });
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /0042/);
        assert.equal(page.body.includes('4200000000000042'), false);
        const done = await choose(t, body.redirect.url, choice);
        assert.equal(done.statusCode, 303);
        const after = json(await getPayment(t, merchant, body.id));
        assert.match(after.result.code, pattern);
        assert.equal(after.threeDSecure.authenticationStatus, status);
        assert.equal(after.redirect, undefined);
        assert.equal((await notificationsOf(t, body.id)).filter((n) => n.action === 'UPDATED').length, 1);
        // The sealed card is wiped once the redirect ends.
        const { rows } = await t.storage.query<{ sealed: unknown }>('SELECT sealed_method AS sealed FROM shopper_redirects WHERE transaction_id = $1', [body.id]);
        assert.equal(rows[0]!.sealed, null);
      });
    }

    it('a challenge U is refused when the entity requires 3-D Secure', async () => {
      assert.equal((await setRequirement(t, merchant.entityId, 'always')).statusCode, 200);
      try {
        const body = json(await cardWith3ds(t, merchant, '4200000000000042'));
        await choose(t, body.redirect.url, 'U');
        assert.equal(json(await getPayment(t, merchant, body.id)).result.code, '100.390.107');
        // Not enrolled where 3-D Secure is required: 000.400.109.
        const other = json(await cardWith3ds(t, merchant, '4200000000000000'));
        assert.equal(other.result.code, '000.400.109');
        const notParticipating = json(await cardWith3ds(t, merchant, '4532497088771651'));
        assert.equal(notParticipating.result.code, '000.400.101');
      } finally {
        await setRequirement(t, merchant.entityId, 'if-enrolled');
      }
    });

    it('3DS error and not-enrolled cards', async () => {
      const error = json(await cardWith3ds(t, merchant, '4012001037461114'));
      assert.equal(error.result.code, '100.390.112');
      assert.equal(error.threeDSecure.authenticationStatus, 'U');
      // Not required (the default): a card that is not enrolled is paid without 3-D Secure.
      for (const number of ['4012001037141112', '4532497088771651', '4200000000000000']) {
        const body = json(await cardWith3ds(t, merchant, number));
        assert.match(body.result.code, SUCCESS_PATTERN, number);
        assert.equal(body.threeDSecure, undefined);
      }
    });

    it('forcing: 3DS2_enrolled, 3DS2_flow and challengeIndicator=04', async () => {
      const forced = json(await cardWith3ds(t, merchant, '4200000000000000', { 'customParameters[3DS2_enrolled]': 'true' }));
      assert.equal(forced.threeDSecure.authenticationStatus, 'Y');
      const challenge = json(await cardWith3ds(t, merchant, '4200000000000000', { 'customParameters[3DS2_enrolled]': 'true', 'customParameters[3DS2_flow]': 'challenge' }));
      assert.equal(challenge.result.code, '000.200.000');
      const requested = json(await cardWith3ds(t, merchant, '4200000000000091', { 'threeDSecure.challengeIndicator': '04' }));
      assert.equal(requested.result.code, '000.200.000');
      const frictionless = json(await cardWith3ds(t, merchant, '4200000000000042', { 'customParameters[3DS2_flow]': 'frictionless' }));
      assert.match(frictionless.result.code, SUCCESS_PATTERN);
    });

    it('an exemption is honoured and recorded', async () => {
      const body = json(await cardWith3ds(t, merchant, '4200000000000042', { 'threeDSecure.exemptionFlag': '01' }));
      assert.match(body.result.code, SUCCESS_PATTERN);
      assert.equal(body.threeDSecure.exemptionFlag, '01');
    });

    it('an authentication that runs needs browser data, billing address and shopperResultUrl', async () => {
      const response = await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, 'card.number': '4200000000000042' });
      assert.equal(response.statusCode, 400);
      const names = json(response).result.parameterErrors.map((e: { name: string }) => e.name);
      for (const name of ['shopperResultUrl', 'customer.browser.userAgent', 'customer.browser.acceptHeader', 'billing.street1', 'billing.country']) assert.ok(names.includes(name), name);
      // Not enrolled, not required: no authentication runs, nothing more is needed.
      const plain = await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD });
      assert.equal(plain.statusCode, 200);
    });

    it('the entity setting "never" pays a challenge card without 3-D Secure', async () => {
      assert.equal((await setRequirement(t, merchant.entityId, 'never')).statusCode, 200);
      try {
        const body = json(await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, 'card.number': '4200000000000042' }));
        assert.match(body.result.code, SUCCESS_PATTERN);
        assert.equal(body.threeDSecure, undefined);
      } finally {
        await setRequirement(t, merchant.entityId, 'if-enrolled');
      }
    });

    it('the 3-D Secure setting: above an amount, and bad settings refused by name', async () => {
      const set = await setRequirement(t, merchant.entityId, 'above:50.00:EUR');
      assert.equal(set.statusCode, 200);
      assert.equal(json(set).threeDSecure, 'above:50.00:EUR');
      try {
        const small = json(await cardWith3ds(t, merchant, '4200000000000000', { amount: '50.00' }));
        assert.match(small.result.code, SUCCESS_PATTERN);
        const large = json(await cardWith3ds(t, merchant, '4200000000000000', { amount: '50.01' }));
        assert.equal(large.result.code, '000.400.109');
      } finally {
        await setRequirement(t, merchant.entityId, 'if-enrolled');
      }
      const bad = await setRequirement(t, merchant.entityId, 'sometimes');
      assert.equal(bad.statusCode, 400);
      assert.equal(json(bad).result.parameterErrors[0].name, 'requirement');
      assert.equal((await setRequirement(t, 'f'.repeat(32), 'never')).statusCode, 404);
    });

    it('external 3-D Secure results pass through: validated, echoed, no authentication', async () => {
      const body = json(await postPayment(t, merchant, {
        amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, 'card.number': '4200000000000042',
        'threeDSecure.eci': '05', 'threeDSecure.verificationId': 'AAACAgSRBklmQCFgMpEGAAAAAAA=', 'threeDSecure.authenticationStatus': 'Y',
        'threeDSecure.dsTransactionId': 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b', 'threeDSecure.version': '2.2.0',
      }));
      assert.match(body.result.code, SUCCESS_PATTERN);
      assert.equal(body.threeDSecure.eci, '05');
      assert.equal(body.threeDSecure.dsTransactionId, 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b');
      assert.equal(body.redirect, undefined);
      const bad = await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, 'threeDSecure.eci': '09' });
      assert.equal(bad.statusCode, 400);
      assert.equal(json(bad).result.parameterErrors[0].name, 'threeDSecure.eci');
    });

    it('a REPEATED MIT must not carry 3-D Secure data', async () => {
      const response = await postPayment(t, merchant, {
        amount: '92.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034',
        'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT', 'standingInstruction.type': 'UNSCHEDULED', 'standingInstruction.initialTransactionId': 'SIM123456789012345', 'threeDSecure.challengeIndicator': '04',
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.ok(json(response).result.parameterErrors.some((e: { name: string }) => e.name === 'threeDSecure.challengeIndicator'));
    });

    it('createRegistration with a challenge: the registration is usable once Y succeeds, gone after N', async () => {
      const extra = { createRegistration: 'true', 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT', 'standingInstruction.type': 'UNSCHEDULED' };
      const yes = json(await cardWith3ds(t, merchant, '4200000000000042', extra));
      assert.equal(yes.result.code, '000.200.000');
      assert.ok(yes.registrationId);
      await choose(t, yes.redirect.url, 'Y');
      const mit = await t.app.inject({
        method: 'POST', url: `/v1/registrations/${yes.registrationId}/payments`, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: merchant.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', 'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT', 'standingInstruction.type': 'UNSCHEDULED' }),
      });
      assert.match(json(mit).result.code, SUCCESS_PATTERN, mit.body);
      const no = json(await cardWith3ds(t, merchant, '4200000000000042', extra));
      await choose(t, no.redirect.url, 'N');
      const refused = await t.app.inject({
        method: 'POST', url: `/v1/registrations/${no.registrationId}/payments`, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: merchant.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB' }),
      });
      assert.equal(refused.statusCode, 400);
    });

    it('standalone authentication: frictionless, challenge, then GET; another entity cannot read it', async () => {
      const post = (fields: Record<string, string>) => t.app.inject({ method: 'POST', url: '/v1/threeDSecure', headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS }, payload: form({ entityId: merchant.entityId, amount: '92.00', currency: 'EUR', ...SAMPLE_CARD, shopperResultUrl: RESULT_URL, ...BROWSER, ...fields }) });
      const frictionless = json(await post({ 'card.number': '4200000000000091' }));
      assert.equal(frictionless.result.code, '000.400.110');
      assert.equal(frictionless.threeDSecure.authenticationStatus, 'Y');
      const notEnrolled = json(await post({ 'card.number': '4200000000000000' }));
      assert.equal(notEnrolled.result.code, '000.400.109');
      const challenge = json(await post({ 'card.number': '4200000000000042' }));
      assert.equal(challenge.result.code, '000.200.000');
      const done = await choose(t, challenge.redirect.url, 'Y');
      assert.equal(done.statusCode, 303);
      assert.equal(new URL(done.headers.location as string).searchParams.get('resourcePath'), `/v1/threeDSecure/${challenge.id}`);
      const got = json(await t.app.inject({ method: 'GET', url: `/v1/threeDSecure/${challenge.id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) }));
      assert.match(got.result.code, SUCCESS_PATTERN);
      assert.equal(got.threeDSecure.authenticationStatus, 'Y');
      // A later payment uses the result as an external server's.
      const pay = json(await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, 'card.number': '4200000000000042', 'threeDSecure.eci': got.threeDSecure.eci, 'threeDSecure.verificationId': got.threeDSecure.verificationId, 'threeDSecure.authenticationStatus': 'Y', 'threeDSecure.dsTransactionId': got.threeDSecure.dsTransactionId }));
      assert.match(pay.result.code, SUCCESS_PATTERN);
      const other = await t.createMerchant('Other');
      const foreign = await t.app.inject({ method: 'GET', url: `/v1/threeDSecure/${challenge.id}?entityId=${other.entityId}`, headers: bearer(other.accessToken) });
      assert.equal(foreign.statusCode, 404);
    });
  });
}

describe("entity three-d-secure: the command line's direct port", () => {
  it('stores a checked, normalised setting; a bad one and an unknown entity are refused', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'three-d-secure-'));
    const port = await openDirectAdmin(loadConfig({ DATA_DIR: dataDir }));
    try {
      const { entityId } = await port.createEntity({ name: 'Shop' });
      assert.deepEqual(await port.setThreeDSecure(entityId, 'above:50:EUR'), { entityId, threeDSecure: 'above:50.00:EUR' });
      assert.deepEqual(await port.setThreeDSecure(entityId, 'never'), { entityId, threeDSecure: 'never' });
      await assert.rejects(port.setThreeDSecure(entityId, 'sometimes'), /200\.300\.404/);
      await assert.rejects(port.setThreeDSecure('f'.repeat(32), 'always'), /200\.300\.406|no entity/);
    } finally {
      await port.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
