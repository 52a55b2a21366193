import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Storage } from '../../src/storage/port.js';
import { LONG_DIGIT_RUN, words, writtenCardNumber } from '../support/card-numbers.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, postPayment, referencePayment, SAMPLE_CARD, type Merchant } from '../support/payments.js';
import { postRegistration } from '../support/registrations.js';
import { bearer, form, FORM_HEADERS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

/** Card numbers in free text are refused and found nowhere; control characters and odd dates are 400, never 500. */

const PAN = '4111111111111111';
const SPACED = '4111 1111 1111 1111';
const PAY = { amount: '1.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD } as const;

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

const digitsOnly = (text: string) => text.replace(/[^0-9]/g, '');

for (const database of testDatabases()) {
  describe(`hostile text on ${database.name}`, () => {
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

    const query = (search: string) => t.app.inject({ method: 'GET', url: `/v1/query?entityId=${merchant.entityId}&${search}`, headers: bearer(merchant.accessToken) });
    const admin = (method: 'POST' | 'DELETE' | 'GET', url: string, fields?: Record<string, string>) =>
      t.app.inject({ method, url, headers: { ...bearer(TEST_ADMIN_TOKEN), ...(fields ? FORM_HEADERS : {}) }, ...(fields ? { payload: form(fields) } : {}) });

    function refused(response: LightMyRequestResponse, code: string, name: string, message: RegExp): void {
      assert.equal(response.statusCode, 400, response.body);
      const body = response.json();
      assert.equal(body.result.code, code, response.body);
      const error = body.result.parameterErrors.find((entry: { name: string }) => entry.name === name);
      assert.ok(error && message.test(error.message), response.body);
    }

    it('a card number in any free-text field is refused with 200.100.404, shown masked, and stored, logged and echoed nowhere', async () => {
      const paid = await cardPayment(t, merchant, 'PA', '5.00');
      assert.equal(paid.statusCode, 200, paid.body);
      const registration = { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' };
      const cases: [Promise<LightMyRequestResponse>, string][] = [
        [postPayment(t, merchant, { ...PAY, 'card.holder': `Jane ${PAN}` }), 'card.holder'],
        [postPayment(t, merchant, { ...PAY, descriptor: `Shop ${SPACED}` }), 'descriptor'],
        [postPayment(t, merchant, { ...PAY, merchantTransactionId: PAN }), 'merchantTransactionId'],
        [postPayment(t, merchant, { ...PAY, 'customParameters[note]': `card 4111-1111-1111-1111` }), 'customParameters[note]'],
        [postPayment(t, merchant, { ...PAY, 'cart.items[0].name': `gift ${SPACED}` }), 'cart.items[0].name'],
        [referencePayment(t, merchant, paid.json().id, 'CP', '1.00', { merchantTransactionId: `capture ${PAN}` }), 'merchantTransactionId'],
        [postRegistration(t, merchant, { ...registration, 'customParameters[note]': PAN }), 'customParameters[note]'],
        [query(`merchantTransactionId=${PAN}`), 'merchantTransactionId'],
      ];
      for (const [sent, name] of cases) {
        const response = await sent;
        refused(response, '200.100.404', name, /must not contain a card number/);
        assert.ok(response.body.includes('411111******1111'), response.body);
      }
      const entity = await admin('POST', '/admin/entities', { name: `Shop ${SPACED}` });
      refused(entity, '200.100.404', 'name', /must not contain a card number/);

      const stored = digitsOnly(await databaseText(t.storage));
      assert.ok(!stored.includes(PAN), 'the database holds the number');
      assert.ok(!digitsOnly(t.logs.text).includes(PAN), 'a log line holds the number');
      const { rows } = await t.storage.query<{ count: number | bigint }>('SELECT count(*) AS count FROM transactions');
      assert.equal(Number(rows[0]!.count), 1, 'only the sample PA was stored');
    });

    it('control characters, malformed ids and dates out of range are 400 or 404, never 500', async () => {
      const nul = 'a\u0000b';
      const cases: [Promise<LightMyRequestResponse>, number, string][] = [
        [postPayment(t, merchant, { ...PAY, descriptor: nul }), 400, 'descriptor'],
        [postPayment(t, merchant, { ...PAY, merchantTransactionId: `order-17${nul}` }), 400, 'merchantTransactionId'],
        [postPayment(t, merchant, { ...PAY, 'card.holder': `Jane${nul}` }), 400, 'card.holder'],
        [postPayment(t, merchant, { ...PAY, 'customParameters[note]': nul }), 400, 'customParameters[note]'],
        [postPayment(t, merchant, { ...PAY, 'cart.items[0].name': 'two\nlines' }), 400, 'cart.items[0].name'],
        [query('merchantTransactionId=abc%00def'), 400, 'merchantTransactionId'],
        [query('shortId=1%00'), 400, 'shortId'],
        [query('date.from=0000-01-01%2000:00:00&date.to=2030-01-01%2000:00:00'), 400, 'date.from'],
        [admin('POST', '/admin/entities', { name: nul }), 400, 'name'],
        [admin('POST', '/admin/entities', { name: 'Channel', merchant: nul }), 400, 'merchant'],
        [admin('POST', '/admin/entities', { name: 'Channel', merchant: 'not-an-id' }), 404, 'merchant'],
        [admin('POST', '/admin/tokens', { entity: nul }), 400, 'entity'],
        [admin('POST', '/admin/tokens', { entity: 'x'.repeat(40) }), 404, 'entity'],
        [admin('DELETE', '/admin/tokens/a%00b'), 404, 'tokenId'],
        [admin('POST', '/admin/webhooks', { entity: nul, url: 'https://merchant.example/hooks' }), 400, 'entity'],
        [admin('POST', '/admin/webhooks', { entity: merchant.entityId, url: `https://merchant.example/${nul}` }), 400, 'url'],
      ];
      for (const [sent, status, name] of cases) {
        const response = await sent;
        assert.equal(response.statusCode, status, `${name}: ${response.body}`);
        assert.ok(response.json().result.parameterErrors.some((entry: { name: string }) => entry.name === name), response.body);
      }
      const earliest = await query('date.from=0001-01-01%2000:00:00&date.to=9999-12-31%2023:59:59');
      assert.equal(earliest.statusCode, 200, earliest.body);
    });

    it('random free text with a card number at any place (up to the display cut) never shows up in a response, log line or row (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('descriptor', 'merchantTransactionId', 'customParameters[note]', 'card.holder', 'merchantMemo'),
          fc.integer({ min: 0, max: 250 }),
          writtenCardNumber,
          words(20),
          async (name, padding, card, tail) => {
            // Past the field's length too: the number must be refused first, and masked before the cut at 256.
            const value = `ref ${'z'.repeat(padding)} ${card.written}${tail}`;
            const response = await postPayment(t, merchant, { ...PAY, [name]: value });
            assert.equal(response.statusCode, 400, response.body);
            assert.equal(response.json().result.code, '200.100.404', response.body);
            assert.ok(!LONG_DIGIT_RUN.test(response.body.replace(/"(id|timestamp|buildNumber|ndc)":"[^"]*"/g, '')), response.body);
            assert.ok(!digitsOnly(response.body).includes(card.number), response.body);
          },
        ),
        { numRuns: 25 },
      );
      const numbersAfter = t.logs.lines.map(digitsOnly).join('\n');
      assert.ok(!/4111111111111111/.test(numbersAfter));
      const { rows } = await t.storage.query<{ count: number | bigint }>('SELECT count(*) AS count FROM transactions');
      assert.equal(Number(rows[0]!.count), 1, 'nothing with a card number was stored');
    });
  });
}
