import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expireRedirects } from '../../src/operations/redirects/expire-redirects.js';
import { checkoutStatus, createCheckout, widgetPost } from '../support/checkouts.js';
import { testDatabases } from '../support/databases.js';
import { getPayment, postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { resolutionWorker } from '../support/resolution.js';
import { form, FORM_HEADERS, json, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { BROWSER } from '../support/three-d-secure.js';

/**
 * Issue 29, item 9: a shopper who left a provider's page may have paid there. The gateway never
 * declares such a payment rejected on its own: an expired redirect hands the payment to the
 * status checks, and a new widget attempt first has the provider cancel the waiting one.
 * The simulated provider's amounts (docs/simulator.md): 9.99 paid after the shopper left, 9.97
 * cannot tell, any other never paid.
 */

const RESULT_URL = 'https://shop.example.com/result?order=29';
const REDIRECT_EXPIRY_MINUTES = 5;
const CARD = { paymentBrand: SAMPLE_CARD.paymentBrand, 'card.number': SAMPLE_CARD['card.number'], 'card.holder': SAMPLE_CARD['card.holder'], 'card.expiryMonth': SAMPLE_CARD['card.expiryMonth'], 'card.expiryYear': SAMPLE_CARD['card.expiryYear'], 'card.cvv': SAMPLE_CARD['card.cvv'] };

function paypal(t: TestApp, merchant: Merchant, amount: string) {
  return postPayment(t, merchant, { amount, currency: 'EUR', paymentType: 'DB', paymentBrand: 'PAYPAL', shopperResultUrl: RESULT_URL });
}

function choose(t: TestApp, redirectUrl: string, outcome: string) {
  return t.app.inject({ method: 'POST', url: new URL(redirectUrl).pathname, headers: FORM_HEADERS, payload: form({ outcome }) });
}

async function newCheckout(t: TestApp, merchant: Merchant, amount: string, fields: Record<string, string> = {}): Promise<string> {
  const response = await createCheckout(t, merchant, { amount, ...fields });
  assert.equal(response.statusCode, 200, response.body);
  return json(response).id as string;
}

async function transactionsOf(t: TestApp, merchant: Merchant): Promise<number> {
  const { rows } = await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE entity_id = $1', [merchant.entityId]);
  return rows[0]!.n;
}

async function updatedNotifications(t: TestApp, transactionId: string): Promise<number> {
  const { rows } = await t.storage.query<{ n: number }>(`SELECT count(*)::int AS n FROM notifications WHERE transaction_id = $1 AND action = 'UPDATED'`, [transactionId]);
  return rows[0]!.n;
}

async function redirectState(t: TestApp, transactionId: string): Promise<string> {
  const { rows } = await t.storage.query<{ state: string }>('SELECT state FROM shopper_redirects WHERE transaction_id = $1', [transactionId]);
  return rows[0]!.state;
}

for (const db of testDatabases()) {
  describe(`a redirect's payment ends only by what its connector says (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, { env: { REDIRECT_EXPIRY_MINUTES: String(REDIRECT_EXPIRY_MINUTES) } }, (app, created) => {
      t = app;
      merchant = created;
    });

    async function expireAll(): Promise<void> {
      t.clock.advance((REDIRECT_EXPIRY_MINUTES + 1) * 60_000);
      while ((await expireRedirects(t.app.gateway.payments, 100)) > 0);
    }

    it('an expired provider redirect is asked about: the shopper paid after leaving, so it is booked a success, never a rejection', async () => {
      await t.storage.query(`INSERT INTO webhooks (id, entity_id, url, secret, status, created_at, updated_at) VALUES (md5(random()::text), $1, 'https://merchant.example.com/hook', repeat('a', 64), 'active', now(), now())`, [merchant.entityId]);
      const body = json(await paypal(t, merchant, '9.99'));
      assert.equal(body.result.code, '000.200.000');
      await expireAll();
      // The expiry alone decides nothing: the payment waits for the provider's answer.
      const expired = json(await getPayment(t, merchant, body.id));
      assert.equal(expired.result.code, '000.200.000');
      assert.equal(await redirectState(t, body.id), 'expired');
      assert.equal(await updatedNotifications(t, body.id), 0);
      await resolutionWorker(t).drain();
      const after = json(await getPayment(t, merchant, body.id));
      assert.match(after.result.code, SUCCESS_PATTERN);
      assert.equal(after.redirect, undefined);
      assert.equal(await updatedNotifications(t, body.id), 1);
      const { rows } = await t.storage.query<{ resolved_by: string }>('SELECT resolved_by FROM pending_checks WHERE transaction_id = $1', [body.id]);
      assert.equal(rows[0]?.resolved_by, 'status');
    });

    it("the status answer after an expired redirect notifies the payment's notificationUrl too, as its return would have", async () => {
      const url = 'https://merchant.example.com/notify';
      const body = json(await postPayment(t, merchant, { amount: '9.99', currency: 'EUR', paymentType: 'DB', paymentBrand: 'PAYPAL', shopperResultUrl: RESULT_URL, notificationUrl: url }));
      await expireAll();
      await resolutionWorker(t).drain();
      const { rows } = await t.storage.query<{ action: string | null }>(
        'SELECT n.action FROM webhook_deliveries d JOIN notifications n ON n.id = d.notification_id WHERE n.transaction_id = $1 AND d.url = $2 ORDER BY n.created_at',
        [body.id, url],
      );
      assert.deepEqual(rows.map((r) => r.action), [null, 'UPDATED']);
    });

    it('an expired provider redirect whose provider cannot tell stays pending; one that never paid ends as the provider says', async () => {
      const unknown = json(await paypal(t, merchant, '9.97'));
      const abandoned = json(await paypal(t, merchant, '92.00'));
      await expireAll();
      await resolutionWorker(t).drain();
      assert.equal(json(await getPayment(t, merchant, unknown.id)).result.code, '000.200.000');
      assert.equal(json(await getPayment(t, merchant, abandoned.id)).result.code, '100.396.104');
    });

    it('an expired 3-D Secure challenge, before the acquirer was asked, is rejected at once: nothing can have moved', async () => {
      const body = json(await postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, 'card.number': '4200000000000042', shopperResultUrl: RESULT_URL, ...BROWSER }));
      assert.ok(body.redirect?.url, JSON.stringify(body));
      await expireAll();
      assert.equal(json(await getPayment(t, merchant, body.id)).result.code, '100.390.124');
    });

    it('after the expired redirect was paid, the next widget attempt of its checkout charges nothing', async () => {
      const id = await newCheckout(t, merchant, '9.99');
      const first = json(await widgetPost(t, id, { paymentBrand: 'PAYPAL' }));
      assert.equal(first.result.code, '000.200.000');
      await expireAll();
      await resolutionWorker(t).drain();
      const before = await transactionsOf(t, merchant);
      const again = json(await widgetPost(t, id, CARD));
      assert.equal(again.result.code, '200.300.404');
      assert.equal(await transactionsOf(t, merchant), before);
      assert.match(json(await checkoutStatus(t, merchant, id)).result.code, SUCCESS_PATTERN);
    });

    it('a shopper who paid at the provider and came back to the widget is not charged twice: the cancel comes too late', async () => {
      const id = await newCheckout(t, merchant, '9.99');
      const first = json(await widgetPost(t, id, { paymentBrand: 'PAYPAL' }));
      const before = await transactionsOf(t, merchant);
      const again = json(await widgetPost(t, id, CARD));
      assert.equal(again.result.code, '200.300.404');
      assert.equal(await transactionsOf(t, merchant), before);
      assert.match(json(await getPayment(t, merchant, first.id)).result.code, SUCCESS_PATTERN);
      assert.match(json(await checkoutStatus(t, merchant, id)).result.code, SUCCESS_PATTERN);
    });

    it('a provider that cannot cancel keeps its attempt: the new one is refused (800.700.100) and the shopper can still finish the first', async () => {
      const id = await newCheckout(t, merchant, '9.97');
      const first = json(await widgetPost(t, id, { paymentBrand: 'PAYPAL' }));
      const before = await transactionsOf(t, merchant);
      const again = json(await widgetPost(t, id, CARD));
      assert.equal(again.result.code, '800.700.100');
      assert.equal(await transactionsOf(t, merchant), before);
      assert.equal(json(await getPayment(t, merchant, first.id)).result.code, '000.200.000');
      assert.equal(await redirectState(t, first.id), 'open');
      const done = await choose(t, first.redirect.url, 'approve');
      assert.equal(done.statusCode, 303);
      assert.match(json(await getPayment(t, merchant, first.id)).result.code, SUCCESS_PATTERN);
    });

    const BILLING = { 'billing.street1': 'Hauptstrasse 1', 'billing.city': 'Berlin', 'billing.postcode': '10115', 'billing.country': 'DE' };
    const { 'billing.street1': _s, 'billing.city': _c, 'billing.postcode': _p, 'billing.country': _n, ...browser } = BROWSER;
    const CHALLENGE_CARD = { ...CARD, 'card.number': '4200000000000042', ...browser };

    it('3-D Secure, before the acquirer was asked: a challenge the shopper left for the widget ends (100.390.124) and the new attempt pays', async () => {
      const id = await newCheckout(t, merchant, '92.00', BILLING);
      const first = json(await widgetPost(t, id, CHALLENGE_CARD));
      assert.match(first.redirect?.url ?? '', /\/v1\/simulator\/acs\//, JSON.stringify(first));
      assert.match(json(await widgetPost(t, id, CARD)).result.code, SUCCESS_PATTERN);
      assert.equal(json(await getPayment(t, merchant, first.id)).result.code, '100.390.124');
    });

    it('3-D Secure, after the acquirer was asked: a challenge passed whose authorisation got no answer (9.99) blocks a new attempt until the status says paid', async () => {
      const id = await newCheckout(t, merchant, '9.99', BILLING);
      const first = json(await widgetPost(t, id, CHALLENGE_CARD));
      const back = await choose(t, first.redirect.url, 'Y');
      assert.equal(back.statusCode, 303);
      assert.equal(json(await getPayment(t, merchant, first.id)).result.code, '000.200.000');
      const before = await transactionsOf(t, merchant);
      assert.equal(json(await widgetPost(t, id, CARD)).result.code, '800.700.100');
      assert.equal(await transactionsOf(t, merchant), before);
      t.clock.advance(6 * 60_000);
      await resolutionWorker(t).drain();
      assert.match(json(await getPayment(t, merchant, first.id)).result.code, SUCCESS_PATTERN);
      assert.equal(json(await widgetPost(t, id, CARD)).result.code, '200.300.404');
      assert.equal(await transactionsOf(t, merchant), before);
    });

    it('a provider that cancelled: the waiting payment ends as it says, and the new attempt pays', async () => {
      const id = await newCheckout(t, merchant, '92.00');
      const first = json(await widgetPost(t, id, { paymentBrand: 'PAYPAL' }));
      const card = json(await widgetPost(t, id, CARD));
      assert.match(card.result.code, SUCCESS_PATTERN);
      const old = json(await getPayment(t, merchant, first.id));
      assert.equal(old.result.code, '100.396.101');
      assert.equal(old.redirect, undefined);
    });
  });
}
