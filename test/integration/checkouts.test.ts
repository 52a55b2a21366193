import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadWidgetScript } from '../../src/http/widget/script-asset.js';
import { testDatabases } from '../support/databases.js';
import { SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { checkoutStatus, createCheckout, widgetPost } from '../support/checkouts.js';

const CHECKOUT_ID = /^[0-9A-F]{32}\.gw01$/;
const CARD = { paymentBrand: SAMPLE_CARD.paymentBrand, 'card.number': SAMPLE_CARD['card.number'], 'card.holder': SAMPLE_CARD['card.holder'], 'card.expiryMonth': SAMPLE_CARD['card.expiryMonth'], 'card.expiryYear': SAMPLE_CARD['card.expiryYear'], 'card.cvv': SAMPLE_CARD['card.cvv'] };
const DECLINED_CARD = { ...CARD, 'card.number': '4000000000000002' };

async function newCheckout(t: TestApp, merchant: Merchant, fields: Record<string, string> = {}): Promise<string> {
  const response = await createCheckout(t, merchant, fields);
  assert.equal(response.statusCode, 200, response.body);
  return json(response).id as string;
}

async function transactionCount(t: TestApp, merchant: Merchant): Promise<number> {
  const { rows } = await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE entity_id = $1', [merchant.entityId]);
  return rows[0]!.n;
}

function errorNames(response: { body: string }): string[] {
  return (json(response as never).result.parameterErrors ?? []).map((e: { name: string }) => e.name);
}

for (const db of testDatabases()) {
  describe(`checkouts (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, {}, (app, created) => {
      t = app;
      merchant = created;
    });

    it('creates a checkout: 000.200.100, the id in the documented form; the ndc the request\'s own, in the specification\'s characters', async () => {
      const response = await createCheckout(t, merchant);
      assert.equal(response.statusCode, 200, response.body);
      const body = json(response);
      assert.equal(body.result.code, '000.200.100');
      assert.match(body.id, CHECKOUT_ID);
      assert.ok(body.id.length >= 32 && body.id.length <= 48);
      assert.match(body.ndc, /^[0-9a-f]{32}-[0-9a-f]{32}$/);
      assert.ok(body.ndc.startsWith(merchant.entityId));
      assert.equal(body.integrity, undefined);
    });

    it('integrity=true answers the sha384 hash of the exact script bytes', async () => {
      const body = json(await createCheckout(t, merchant, { integrity: 'true' }));
      assert.match(body.integrity, /^sha384-[A-Za-z0-9+/]{64}$/);
      assert.equal(body.integrity, loadWidgetScript().integrity);
    });

    for (const [name, fields, code, field] of [
      ['card data (the merchant server never sees it)', { 'card.number': '4200000000000000' }, '200.100.404', 'card.number'],
      ['no amount', { amount: '' }, '100.550.300', 'amount'],
      ['a bad overridePaymentType', { 'overridePaymentType[VISA]': 'CD' }, '200.300.404', 'overridePaymentType[VISA]'],
      ['an unknown stored card', { 'registrations[0].id': 'ffffffffffffffffffffffffffffffff' }, '100.150.200', 'registrations[0].id'],
      ['a shopperResultUrl that is no URL', { shopperResultUrl: 'not a url' }, '100.370.102', 'shopperResultUrl'],
    ] as const) {
      it(`refuses a checkout with ${name}, naming ${field}`, async () => {
        const response = await createCheckout(t, merchant, fields as Record<string, string>);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(json(response).result.code, code);
        assert.ok(errorNames(response).includes(field), response.body);
      });
    }

    it('answers pending before the shopper pays, and the payment (its own id) after', async () => {
      const id = await newCheckout(t, merchant);
      const before = await checkoutStatus(t, merchant, id);
      assert.equal(before.statusCode, 200);
      assert.equal(json(before).result.code, '000.200.000');
      assert.match(json(before).ndc, /^[a-zA-Z0-9-]{1,69}$/);
      const paid = await widgetPost(t, id, CARD);
      assert.equal(paid.statusCode, 200, paid.body);
      const payment = json(paid);
      assert.match(payment.result.code, SUCCESS_PATTERN);
      assert.match(payment.id, /^[0-9a-f]{32}$/);
      assert.equal(payment.amount, '92.00');
      assert.equal(payment.card.last4Digits, '0000');
      assert.ok(!paid.body.includes('4200000000000000'));
      const after = json(await checkoutStatus(t, merchant, id));
      assert.equal(after.id, payment.id);
      assert.equal(after.result.code, payment.result.code);
      assert.equal(after.paymentType, 'DB');
    });

    it('a paid checkout takes no second payment (200.300.404)', async () => {
      const id = await newCheckout(t, merchant);
      assert.equal((await widgetPost(t, id, CARD)).statusCode, 200);
      const again = await widgetPost(t, id, CARD);
      assert.equal(again.statusCode, 400);
      assert.equal(json(again).result.code, '200.300.404');
      assert.deepEqual(errorNames(again), ['id']);
    });

    it('a declined card leaves the checkout payable: the retry pays, and the status shows the retry', async () => {
      const id = await newCheckout(t, merchant);
      const declined = await widgetPost(t, id, DECLINED_CARD);
      assert.equal(declined.statusCode, 400);
      assert.equal(json(declined).result.code, '800.100.100');
      assert.equal(json(await checkoutStatus(t, merchant, id)).id, json(declined).id);
      const retry = await widgetPost(t, id, CARD);
      assert.match(json(retry).result.code, SUCCESS_PATTERN);
      const status = json(await checkoutStatus(t, merchant, id));
      assert.equal(status.id, json(retry).id);
      assert.notEqual(status.id, json(declined).id);
    });

    it('a checkout takes at most 10 attempts: then 700.500.001, even for a good card', async () => {
      const id = await newCheckout(t, merchant);
      for (let attempt = 0; attempt < 10; attempt += 1) assert.equal(json(await widgetPost(t, id, DECLINED_CARD)).result.code, '800.100.100');
      const eleventh = await widgetPost(t, id, CARD);
      assert.equal(eleventh.statusCode, 400);
      assert.equal(json(eleventh).result.code, '700.500.001');
    });

    it("3-D Secure: the widget sends the shopper's browser data, the gateway adds what the request itself says", async () => {
      const id = await newCheckout(t, merchant, { 'billing.street1': 'Hauptstrasse 1', 'billing.city': 'Berlin', 'billing.postcode': '10115', 'billing.country': 'DE' });
      const browser = { 'customer.browser.language': 'de-DE', 'customer.browser.screenHeight': '1080', 'customer.browser.screenWidth': '1920', 'customer.browser.timezone': '-60', 'customer.browser.javaEnabled': 'false', 'customer.browser.screenColorDepth': '24' };
      const response = await t.app.inject({
        method: 'POST',
        url: `/v1/checkouts/${id}/payment`,
        headers: { ...FORM_HEADERS, accept: 'text/html,application/xhtml+xml', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' },
        payload: form({ shopperResultUrl: 'https://shop.example.com/result', ...CARD, 'card.number': '4200000000000042', ...browser }),
      });
      assert.equal(response.statusCode, 200, response.body);
      const pending = json(response);
      assert.equal(pending.result.code, '000.200.000');
      assert.match(pending.redirect.url, /\/v1\/simulator\/acs\//);
    });

    it("another entity's checkout is not found", async () => {
      const id = await newCheckout(t, merchant);
      const other = await t.createMerchant('Other shop');
      const response = await checkoutStatus(t, other, id);
      assert.equal(response.statusCode, 400);
      assert.equal(json(response).result.code, '200.300.404');
    });

    it('an id that cannot be a checkout is refused like an unknown one', async () => {
      for (const id of ['abc', '25f9ecb03df60a7f9630f2bb48584915', `${'A'.repeat(32)}.gw01`]) {
        const response = await checkoutStatus(t, merchant, id);
        assert.equal(response.statusCode, 400, id);
        assert.equal(json(response).result.code, '200.300.404');
        assert.equal((await widgetPost(t, id, CARD)).statusCode, 400);
      }
    });

    it('after 30 minutes the id is refused, for the status and for a payment', async () => {
      const id = await newCheckout(t, merchant);
      t.clock.advance(30 * 60_000 + 1);
      for (const response of [await checkoutStatus(t, merchant, id), await widgetPost(t, id, CARD)]) {
        assert.equal(response.statusCode, 400);
        assert.equal(json(response).result.code, '200.300.404');
      }
    });

    it("the widget cannot change the merchant's amount or set the merchant's own custom parameters", async () => {
      const id = await newCheckout(t, merchant);
      for (const [fields, name] of [[{ amount: '1.00' }, 'amount'], [{ 'customParameters[orderRef]': 'x' }, 'customParameters[orderRef]'], [{ paymentType: 'CD' }, 'paymentType']] as const) {
        const response = await widgetPost(t, id, { ...CARD, ...fields });
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(errorNames(response).includes(name), response.body);
      }
      // Still payable: nothing was attempted.
      assert.match(json(await widgetPost(t, id, { ...CARD, 'customParameters[SHOPPER_device]': 'phone' })).result.code, SUCCESS_PATTERN);
    });

    it('SHOPPER_ custom parameters from the page and the merchant\'s own are both echoed', async () => {
      const id = await newCheckout(t, merchant, { 'customParameters[orderRef]': 'o-17' });
      const payment = json(await widgetPost(t, id, { ...CARD, 'customParameters[SHOPPER_device]': 'phone' }));
      assert.deepEqual(payment.customParameters, { orderRef: 'o-17', SHOPPER_device: 'phone' });
    });

    it('a card error is named at its field and the checkout stays payable', async () => {
      const id = await newCheckout(t, merchant);
      const response = await widgetPost(t, id, { ...CARD, 'card.number': '4200000000000001' });
      assert.equal(response.statusCode, 400);
      assert.ok(errorNames(response).includes('card.number'));
      assert.ok(!response.body.includes('4200000000000001'));
      assert.match(json(await widgetPost(t, id, CARD)).result.code, SUCCESS_PATTERN);
    });

    it('overridePaymentType[brand] sets the payment type of that brand only', async () => {
      const id = await newCheckout(t, merchant, { 'overridePaymentType[VISA]': 'PA' });
      assert.equal(json(await widgetPost(t, id, CARD)).paymentType, 'PA');
      const other = await newCheckout(t, merchant, { 'overridePaymentType[MASTER]': 'PA' });
      assert.equal(json(await widgetPost(t, other, CARD)).paymentType, 'DB');
    });

    it('updating a checkout before payment changes what the widget pays (000.200.101); after payment it is refused', async () => {
      const id = await newCheckout(t, merchant);
      const update = (fields: Record<string, string>) =>
        t.app.inject({ method: 'POST', url: `/v1/checkouts/${id}`, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS }, payload: form({ entityId: merchant.entityId, ...fields }) });
      const updated = await update({ amount: '10.50' });
      assert.equal(updated.statusCode, 200, updated.body);
      assert.equal(json(updated).result.code, '000.200.101');
      assert.equal(json(updated).id, id);
      const bad = await update({ amount: '-1' });
      assert.equal(bad.statusCode, 400);
      assert.ok(errorNames(bad).includes('amount'));
      assert.equal(json(await widgetPost(t, id, CARD)).amount, '10.50');
      const late = await update({ amount: '20.00' });
      assert.equal(late.statusCode, 400);
    });

    it('two posts at once: exactly one payment is made', async () => {
      const id = await newCheckout(t, merchant);
      const answers = await Promise.all([widgetPost(t, id, CARD), widgetPost(t, id, CARD), widgetPost(t, id, CARD)]);
      const paid = answers.filter((a) => SUCCESS_PATTERN.test(json(a).result.code));
      assert.equal(paid.length, 1, answers.map((a) => a.body).join('\n'));
      for (const other of answers.filter((a) => !paid.includes(a))) assert.match(json(other).result.code, /^(800\.700\.100|200\.300\.404)$/);
      const { rows } = await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE entity_id = $1 AND id = $2', [merchant.entityId, json(paid[0]!).id]);
      assert.equal(rows[0]!.n, 1);
    });

    it('the widget session shows the amount and state, readable from any origin, and no card data', async () => {
      const id = await newCheckout(t, merchant);
      const session = await t.app.inject({ method: 'GET', url: `/v1/checkouts/${id}/widget` });
      assert.equal(session.statusCode, 200, session.body);
      assert.equal(session.headers['access-control-allow-origin'], '*');
      const body = json(session);
      assert.equal(body.amount, '92.00');
      assert.equal(body.currency, 'EUR');
      assert.equal(body.state, 'open');
      assert.equal(body.purpose, 'payment');
      assert.deepEqual(body.registrations, []);
      await widgetPost(t, id, CARD);
      assert.equal(json(await t.app.inject({ method: 'GET', url: `/v1/checkouts/${id}/widget` })).state, 'paid');
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/checkouts/nope/widget' })).statusCode, 400);
    });

    it("the widget session names the shopper's country (billing, else shipping) as two letters, and nothing else of the address", async () => {
      const session = async (fields: Record<string, string>) => json(await t.app.inject({ method: 'GET', url: `/v1/checkouts/${await newCheckout(t, merchant, fields)}/widget` }));
      const billing = await session({ 'billing.street1': 'Bahnhofstrasse 1', 'billing.city': 'Zürich', 'billing.postcode': '8001', 'billing.country': 'CH', 'shipping.country': 'AT' });
      assert.equal(billing.shopperCountry, 'CH', 'billing first');
      for (const secret of ['Bahnhofstrasse', 'Zürich', '8001']) assert.ok(!JSON.stringify(billing).includes(secret), secret);
      assert.equal((await session({ 'shipping.country': 'AT' })).shopperCountry, 'AT', 'else shipping');
      assert.equal('shopperCountry' in (await session({})), false, 'none known: not there');
    });

    it('a stored card: the session offers it masked, and paying with it uses the registration', async () => {
      const registration = json(await t.app.inject({
        method: 'POST',
        url: '/v1/registrations',
        headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: merchant.entityId, ...CARD, 'card.number': '5454545454545454', paymentBrand: 'MASTER' }),
      }));
      const id = await newCheckout(t, merchant, { 'registrations[0].id': registration.id });
      const session = json(await t.app.inject({ method: 'GET', url: `/v1/checkouts/${id}/widget` }));
      assert.deepEqual(session.registrations, [{ id: registration.id, brand: 'MASTER', last4Digits: '5454', expiryMonth: '05', expiryYear: '2034' }]);
      const unknown = await widgetPost(t, id, { registrationId: 'f'.repeat(32) });
      assert.equal(unknown.statusCode, 400);
      assert.deepEqual(errorNames(unknown), ['registrationId']);
      const paidResponse = await widgetPost(t, id, { registrationId: registration.id, 'card.cvv': '123' });
      const paid = json(paidResponse);
      assert.equal(paidResponse.statusCode, 200, paidResponse.body);
      assert.match(paid.result.code, SUCCESS_PATTERN);
      assert.equal(paid.registrationId, registration.id);
      assert.equal(paid.paymentBrand, 'MASTER');
    });

    it("a stored card of another entity cannot be offered", async () => {
      const other = await t.createMerchant('Other shop');
      const theirs = json(await t.app.inject({
        method: 'POST',
        url: '/v1/registrations',
        headers: { ...bearer(other.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: other.entityId, ...CARD }),
      }));
      const response = await createCheckout(t, merchant, { 'registrations[0].id': theirs.id });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(errorNames(response), ['registrations[0].id']);
    });

    it('a redirect brand: the shopper comes back to the result URL with the checkout id and its status path', async () => {
      const id = await newCheckout(t, merchant);
      const pending = json(await widgetPost(t, id, { paymentBrand: 'PAYPAL' }));
      assert.equal(pending.result.code, '000.200.000');
      assert.ok(pending.redirect?.url);
      assert.equal(json(await t.app.inject({ method: 'GET', url: `/v1/checkouts/${id}/widget` })).state, 'open');
      const done = await t.app.inject({ method: 'POST', url: new URL(pending.redirect.url).pathname, headers: FORM_HEADERS, payload: form({ outcome: 'approve' }) });
      assert.equal(done.statusCode, 303);
      const location = new URL(done.headers.location as string);
      assert.equal(location.searchParams.get('id'), id);
      assert.equal(location.searchParams.get('resourcePath'), `/v1/checkouts/${id}/payment`);
      assert.equal(location.searchParams.get('order'), '17');
      const status = json(await checkoutStatus(t, merchant, id));
      assert.equal(status.id, pending.id);
      assert.match(status.result.code, SUCCESS_PATTERN);
      assert.equal(json(await widgetPost(t, id, CARD)).result.code, '200.300.404');
    });

    it('a shopper who comes back to the widget from a provider page cancels that attempt and pays another way', async () => {
      const id = await newCheckout(t, merchant);
      const abandoned = json(await widgetPost(t, id, { paymentBrand: 'PAYPAL' }));
      const card = json(await widgetPost(t, id, CARD));
      assert.match(card.result.code, SUCCESS_PATTERN);
      const old = json(await t.app.inject({ method: 'GET', url: `/v1/payments/${abandoned.id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) }));
      assert.equal(old.result.code, '100.396.101');
      // The abandoned page's link no longer completes anything.
      const late = await t.app.inject({ method: 'POST', url: new URL(abandoned.redirect.url).pathname, headers: FORM_HEADERS, payload: form({ outcome: 'approve' }) });
      assert.notEqual(late.statusCode, 303);
    });

    it('a registration checkout stores the account without charging, and its status is the registration', async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/checkouts',
        headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: merchant.entityId, createRegistration: 'true' }),
      });
      assert.equal(created.statusCode, 200, created.body);
      const id = json(created).id;
      assert.equal(json(await widgetPost(t, id, CARD)).result.code, '200.300.404');
      const transactionsBefore = await transactionCount(t, merchant);
      const registered = await widgetPost(t, id, CARD, 'registration');
      assert.equal(await transactionCount(t, merchant), transactionsBefore);
      assert.equal(registered.statusCode, 200, registered.body);
      const registration = json(registered);
      assert.match(registration.id, /^[0-9a-f]{32}$/);
      assert.equal(registration.card.last4Digits, '0000');
      const status = json(await checkoutStatus(t, merchant, id, 'registration'));
      assert.equal(status.id, registration.id);
      const charged = await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE id = $1', [registration.id]);
      assert.equal(charged.rows[0]!.n, 0);
      assert.equal((await widgetPost(t, id, CARD, 'registration')).statusCode, 400);
    });

    it('a payment checkout needs amount, currency and paymentType unless it only registers', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/checkouts',
        headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: merchant.entityId }),
      });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(errorNames(response).sort(), ['amount', 'currency', 'paymentType']);
    });
  });
}
