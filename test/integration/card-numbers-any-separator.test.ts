import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { after, before, describe, it } from 'node:test';
import type { Storage } from '../../src/storage/port.js';
import { normalisedDigits, separatorForms } from '../support/card-numbers.js';
import { createCheckout } from '../support/checkouts.js';
import { testDatabases } from '../support/databases.js';
import { postPayment, SAMPLE_CARD, type Merchant } from '../support/payments.js';
import { postRegistration } from '../support/registrations.js';
import { bearer, form, FORM_HEADERS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

/**
 * Issue 29, item 6: a card number written with dots, slashes, zero-width characters, full-width
 * digits … in a free-text field, or in the partly exempt phone and identity-document fields, is
 * refused like the plain form: nothing stored, the answer and the log show it masked at most.
 */

const PAN = '4111111111111111';
const AMEX = '378282246310005';
const PAY = { amount: '1.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, 'card.number': '4200000000000000' } as const;

/** Every row of every table, all columns as text. */
async function databaseText(storage: Storage): Promise<string> {
  const { rows: tables } = await storage.query<{ name: string }>(
    `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
     WHERE table_schema = ANY (current_schemas(false)) AND table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const table of tables) parts.push(...(await storage.query<{ line: string }>(`SELECT t::text AS line FROM ${table.name} t`)).rows.map((row) => row.line));
  return parts.join('\n');
}

for (const database of testDatabases()) {
  describe(`card numbers in any form on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'trace' } });
      merchant = await t.createMerchant();
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    function refused(response: LightMyRequestResponse, name: string, number: string, why: string): void {
      assert.equal(response.statusCode, 400, `${why}: ${response.body}`);
      const body = response.json();
      assert.equal(body.result.code, '200.100.404', `${why}: ${response.body}`);
      assert.ok(body.result.parameterErrors.some((entry: { name: string; message: string }) => entry.name === name && entry.message === 'must not contain a card number'), response.body);
      assert.ok(!normalisedDigits(response.body).includes(number), `${why}: echoed ${response.body}`);
    }

    it('every separator form in descriptor, merchantTransactionId, customParameters, customer and billing fields is refused, stored nowhere and echoed nowhere', async () => {
      const fields = ['descriptor', 'merchantTransactionId', 'customParameters[note]', 'customer.givenName', 'billing.street1'];
      let sent = 0;
      for (const [form, written] of separatorForms(PAN)) {
        const name = fields[sent % fields.length]!;
        refused(await postPayment(t, merchant, { ...PAY, [name]: `ref ${written}` }), name, PAN, `payment ${name} ${form}`);
        refused(await createCheckout(t, merchant, { [name]: written }), name, PAN, `checkout ${name} ${form}`);
        refused(await postRegistration(t, merchant, { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'customer.surname': written }), 'customer.surname', PAN, `registration ${form}`);
        sent += 1;
      }
      const exempt: [name: string, value: string, number: string][] = [
        ['customer.identificationDocId', PAN, PAN],
        ['customer.identificationDocId', '4111.1111.1111.1111', PAN],
        ['customer.phone', `+${AMEX}`, AMEX],
        ['customer.mobile', '+378\u200b282246310005', AMEX],
      ];
      for (const [name, value, number] of exempt) refused(await postPayment(t, merchant, { ...PAY, [name]: value }), name, number, `${name}=${value}`);

      const stored = normalisedDigits(await databaseText(t.storage));
      assert.ok(!stored.includes(PAN) && !stored.includes(AMEX), 'the database holds a number');
      assert.ok(!normalisedDigits(t.logs.text).includes(PAN) && !normalisedDigits(t.logs.text).includes(AMEX), 'a log line holds a number');
      const { rows } = await t.storage.query<{ count: number | bigint }>('SELECT (SELECT count(*) FROM transactions) + (SELECT count(*) FROM checkouts) AS count');
      assert.equal(Number(rows[0]!.count), 0, 'nothing was stored');
    });

    it('an entity name, a path and a percent-encoded path: refused or answered without the number, and logged masked', async () => {
      const entity = await t.app.inject({ method: 'POST', url: '/admin/entities', headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form({ name: 'Shop 4111.1111.1111.1111' }) });
      refused(entity, 'name', PAN, 'entity name');
      const encoded = [...'4111111111111111'].map((digit) => `%3${digit}`).join('');
      for (const path of ['/v1/payments/4111.1111.1111.1111', '/v1/nothing/4111%2E1111%2E1111%2E1111', `/v1/nothing/${encoded}`, `/v1/nothing/${encodeURIComponent('４１１１１１１１１１１１１１１１')}`]) {
        const response = await t.app.inject({ method: 'GET', url: `${path}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
        assert.ok(response.statusCode >= 400 && response.statusCode < 500, `${path}: ${response.statusCode} ${response.body}`);
        assert.ok(!normalisedDigits(decodeURIComponent(response.body)).includes(PAN), `${path} echoed: ${response.body}`);
      }
      const logged = t.logs.lines.map((line) => normalisedDigits(decodeURIComponent(line.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'))));
      assert.ok(!logged.some((digits) => digits.includes(PAN)), 'a log line holds the number');
    });

    it('an Idempotency-Key holding a card number is refused and not stored', async () => {
      for (const key of [PAN, '4111.1111.1111.1111', `order-${AMEX}`]) {
        const response = await postPayment(t, merchant, PAY, { 'idempotency-key': key });
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().result.code, '200.100.404', response.body);
        assert.ok(!normalisedDigits(response.body).includes(PAN) && !normalisedDigits(response.body).includes(AMEX), response.body);
      }
      const { rows } = await t.storage.query<{ key: string }>('SELECT key FROM idempotency_keys');
      assert.deepEqual(rows, []);
      const fine = await postPayment(t, merchant, PAY, { 'idempotency-key': 'order-2026-11-27-0017' });
      assert.equal(fine.statusCode, 200, fine.body);
    });

    it('a real phone number and identity document number are still accepted and stored', async () => {
      const response = await postPayment(t, merchant, {
        ...PAY,
        'customer.givenName': 'Jane',
        'customer.surname': 'Jones',
        'customer.phone': '+49 151 1234 5678',
        'customer.identificationDocType': 'IDCARD',
        'customer.identificationDocId': '440304199001011239',
      });
      assert.equal(response.statusCode, 200, response.body);
    });
  });
}
