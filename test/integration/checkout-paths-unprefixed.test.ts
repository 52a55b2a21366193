/**
 * The specification's endpoint table writes the checkout paths without a version prefix
 * (`POST /checkouts`, `/checkouts/{id}/payment|registration`); OPPWA's clients use /v1/. Both
 * forms are served by the same handlers and answer alike, whichever form created the checkout.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { RESULT_URL } from '../support/checkouts.js';

const CARD = { paymentBrand: SAMPLE_CARD.paymentBrand, 'card.number': SAMPLE_CARD['card.number'], 'card.holder': SAMPLE_CARD['card.holder'], 'card.expiryMonth': SAMPLE_CARD['card.expiryMonth'], 'card.expiryYear': SAMPLE_CARD['card.expiryYear'], 'card.cvv': SAMPLE_CARD['card.cvv'] };
const PREFIXES = ['/checkouts', '/v1/checkouts'] as const;

function create(t: TestApp, merchant: Merchant, prefix: string, fields: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST', url: prefix, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
    payload: form({ entityId: merchant.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...fields }),
  });
}

function status(t: TestApp, merchant: Merchant, prefix: string, id: string, purpose = 'payment') {
  return t.app.inject({ method: 'GET', url: `${prefix}/${id}/${purpose}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
}

function post(t: TestApp, prefix: string, id: string, fields: Record<string, string>, purpose = 'payment') {
  return t.app.inject({ method: 'POST', url: `${prefix}/${id}/${purpose}`, headers: FORM_HEADERS, payload: form({ shopperResultUrl: RESULT_URL, ...fields }) });
}

/** The answer without what differs from request to request. */
function comparable(body: Record<string, any>): Record<string, unknown> {
  const { id: _id, ndc: _ndc, timestamp: _timestamp, ...rest } = body;
  return rest;
}

for (const db of testDatabases()) {
  describe(`checkout paths without /v1 (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, {}, (app, created) => {
      t = app;
      merchant = created;
    });

    it('POST /checkouts creates a checkout exactly as POST /v1/checkouts does', async () => {
      const [bare, versioned] = await Promise.all(PREFIXES.map((prefix) => create(t, merchant, prefix, { integrity: 'true' })));
      assert.equal(bare!.statusCode, 200, bare!.body);
      assert.equal(versioned!.statusCode, 200, versioned!.body);
      assert.equal(json(bare!).result.code, '000.200.100');
      assert.deepEqual(comparable(json(bare!)), comparable(json(versioned!)));
      assert.notEqual(json(bare!).id, json(versioned!).id);
    });

    it('a refused creation answers the same on both forms', async () => {
      const [bare, versioned] = await Promise.all(PREFIXES.map((prefix) => create(t, merchant, prefix, { amount: '' })));
      assert.equal(bare!.statusCode, 400);
      assert.deepEqual(comparable(json(bare!)), comparable(json(versioned!)));
      assert.equal(json(bare!).result.code, '100.550.300');
    });

    for (const [creator, payer] of [['/checkouts', '/checkouts'], ['/v1/checkouts', '/checkouts'], ['/checkouts', '/v1/checkouts']] as const) {
      it(`created on ${creator}, paid and read on ${payer}/{id}/payment`, async () => {
        const id = json(await create(t, merchant, creator)).id as string;
        const before = await status(t, merchant, payer, id);
        assert.equal(before.statusCode, 200, before.body);
        assert.equal(json(before).result.code, '000.200.000');
        const paid = await post(t, payer, id, CARD);
        assert.equal(paid.statusCode, 200, paid.body);
        assert.match(json(paid).result.code, SUCCESS_PATTERN);
        const after = await status(t, merchant, payer, id);
        assert.equal(json(after).id, json(paid).id, 'the status is the payment, with its own id');
        const other = payer === '/checkouts' ? '/v1/checkouts' : '/checkouts';
        assert.equal(json(await status(t, merchant, other, id)).id, json(paid).id, 'the other form reads the same payment');
      });
    }

    it('POST and GET /checkouts/{id}/registration register an account', async () => {
      const id = json(await create(t, merchant, '/checkouts', { amount: '', currency: '', paymentType: '', createRegistration: 'true' })).id as string;
      assert.ok(id, 'a registration checkout was created');
      const registered = await post(t, '/checkouts', id, CARD, 'registration');
      assert.equal(registered.statusCode, 200, registered.body);
      assert.match(json(registered).result.code, SUCCESS_PATTERN);
      const read = await status(t, merchant, '/checkouts', id, 'registration');
      assert.equal(json(read).id, json(registered).id);
    });

    it('POST /checkouts/{id} updates, and OPTIONS answers the widget\'s preflight, as on /v1', async () => {
      const id = json(await create(t, merchant, '/checkouts')).id as string;
      const updated = await t.app.inject({ method: 'POST', url: `/checkouts/${id}`, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS }, payload: form({ entityId: merchant.entityId, amount: '50.00' }) });
      assert.equal(json(updated).result.code, '000.200.101', updated.body);
      for (const prefix of PREFIXES) {
        const preflight = await t.app.inject({ method: 'OPTIONS', url: `${prefix}/${id}/payment`, headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' } });
        assert.equal(preflight.statusCode, 204);
        assert.equal(preflight.headers['access-control-allow-origin'], '*');
      }
    });

    it('an unknown checkout and a missing credential answer the same on both forms', async () => {
      const unknown = 'F'.repeat(32) + '.gw01';
      const answers = await Promise.all(PREFIXES.map((prefix) => status(t, merchant, prefix, unknown)));
      assert.deepEqual(answers.map((a) => [a.statusCode, json(a).result.code]), [[400, '200.300.404'], [400, '200.300.404']]);
      const anonymous = await Promise.all(PREFIXES.map((prefix) => t.app.inject({ method: 'GET', url: `${prefix}/${unknown}/payment?entityId=${merchant.entityId}` })));
      assert.deepEqual(anonymous.map((a) => [a.statusCode, json(a).result.code]), [[401, '800.900.300'], [401, '800.900.300']]);
    });
  });
}
