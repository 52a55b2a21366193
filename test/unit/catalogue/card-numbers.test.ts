import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { CARD_NUMBER_CODE, CARD_NUMBER_EXEMPTIONS, cardNumberMinDigits } from '../../../src/catalogue/card-number-fields.js';
import { ISSUED_NUMBERS_ONLY } from '../../../src/domain/card-numbers-in-text.js';
import { CATALOGUE, endpointCatalogue } from '../../../src/catalogue/catalogue.js';
import { validateRequest } from '../../../src/catalogue/engine.js';
import { MAX_DISPLAYED_LENGTH, displayName, displayRowValue, displayUnknownValue } from '../../../src/catalogue/mask.js';
import { ENDPOINTS, type Endpoint, type RequestBody } from '../../../src/catalogue/types.js';
import { LONG_DIGIT_RUN, words, writtenCardNumber } from '../../support/card-numbers.js';
import { CONTEXT, MINIMAL, sampleName, VISA_CARD } from './fixtures.js';

/** Card numbers outside the card fields (refused), control characters, dates, masking before cutting. */

const PAN = '4111111111111111';
const rowNamed = (name: string) => CATALOGUE.find((row) => row.name === name)!;
const issueOf = (endpoint: Endpoint, body: Record<string, string>, name: string) => {
  const result = validateRequest(endpoint, { ...MINIMAL[endpoint], ...body } as RequestBody, CONTEXT);
  return result.ok ? undefined : result.issues.find((entry) => entry.name === name);
};

test('the exempt fields, and from how many digits each is checked', () => {
  const cases: [name: string, minDigits: number | undefined][] = [
    ['card.number', undefined],
    ['tokenAccount.number', undefined],
    ['bankAccount.iban', undefined],
    ['bankAccount.number', undefined],
    ['sender.accountNumber', undefined],
    ['giftCard.number', undefined],
    ['card.cvv', undefined],
    ['entityId', undefined],
    ['registrationId', undefined],
    // A checkout's stored cards are registration ids the gateway made: about one random id in a
    // thousand holds a Luhn-valid run of digits, and the gateway must take back what it issued.
    ['registrations[n].id', undefined],
    ['threeDSecure.dsTransactionId', undefined],
    ['standingInstruction.initialTransactionId', undefined],
    ['recurringMigration.connectorTxId2', undefined],
    ['shipping.trackingNumber', undefined],
    ['merchant.shipping.returnTrackingNumber', undefined],
    ['cart.items[n].shippingTrackingNumber', undefined],
    ['airline.passengers[n].ticketNumber', undefined],
    ['airline.passengers[n].legs[n].exchangeTicketNum', undefined],
    // Checked field by field by the schedule's plan (operations/schedules/schedule-plan.ts).
    ['job.expression', undefined],
    ['customer.identificationDocId', ISSUED_NUMBERS_ONLY],
    ['shipping.customer.identificationDocId', ISSUED_NUMBERS_ONLY],
    ['customer.phone', 16],
    ['shipping.customer.workPhone', 16],
    ['merchant.billing.mobile', 16],
    ['corporate.fax', 16],
    ['cart.items[n].recipient.phone', 16],
    ['airline.passengers[n].phone', 16],
    ['card.holder', 13],
    ['descriptor', 13],
    ['merchantTransactionId', 13],
    ['merchantMemo', 13],
    ['customParameters[name]', 13],
    ['cart.items[n].name', 13],
    ['customer.merchantCustomerId', 13],
    ['billing.street1', 13],
    ['giftCard.holder', 13],
    ['bankAccount.holder', 13],
    ['airline.passengers[n].frequentFlyerNumber', 13],
    ['merchant.taxId', 13],
    ['shopperResultUrl', 13],
  ];
  for (const [name, minDigits] of cases) assert.equal(cardNumberMinDigits(rowNamed(name)), minDigits, name);
  assert.ok(CARD_NUMBER_EXEMPTIONS.every((entry) => entry.why.length > 20), 'every exemption says why');
});

test('every other field of every endpoint refuses a card number with 200.100.404 and shows it masked', () => {
  let checked = 0;
  for (const endpoint of ENDPOINTS) {
    for (const { row, cardNumberMinDigits: minDigits } of endpointCatalogue(endpoint).rows) {
      if (minDigits === undefined) continue;
      const name = sampleName(row);
      const found = issueOf(endpoint, { [name]: `ref ${PAN.replace(/(\d{4})(?=\d)/g, '$1 ')}` }, name);
      assert.equal(found?.code, CARD_NUMBER_CODE, `${endpoint} ${name}`);
      assert.equal(found?.message, 'must not contain a card number');
      assert.equal(found?.value, 'ref 411111******1111', `${endpoint} ${name}`);
      checked += 1;
    }
  }
  assert.ok(checked > 500, `${checked} fields checked`);
});

test('card numbers in requests: refused or admitted, per field', () => {
  const cases: [endpoint: Endpoint, body: Record<string, string>, name: string, code: string | undefined][] = [
    ['payment', { descriptor: '4111-1111-1111-1111' }, 'descriptor', CARD_NUMBER_CODE],
    ['payment', { ...VISA_CARD, 'card.holder': 'Jane 4111111111111111' }, 'card.holder', CARD_NUMBER_CODE],
    ['payment', { 'customParameters[note]': `call me, card ${PAN}` }, 'customParameters[note]', CARD_NUMBER_CODE],
    ['payment', { [`customParameters[${PAN}]`]: 'x' }, `customParameters[411111******1111]`, CARD_NUMBER_CODE],
    ['referencing', { merchantTransactionId: PAN }, 'merchantTransactionId', CARD_NUMBER_CODE],
    ['registration', { merchantTransactionId: `order ${PAN}` }, 'merchantTransactionId', CARD_NUMBER_CODE],
    ['query', { merchantTransactionId: PAN }, 'merchantTransactionId', CARD_NUMBER_CODE],
    ['payment', { 'cart.items[0].name': `gift for 4111 1111 1111 1111` }, 'cart.items[0].name', CARD_NUMBER_CODE],
    ['payment', { 'customer.phone': '+49 151 1234 5678' }, 'customer.phone', undefined],
    ['payment', { 'customer.phone': '4111 1111 1111 1111' }, 'customer.phone', CARD_NUMBER_CODE],
    ['payment', { merchantTransactionId: 'order-4111111111111112' }, 'merchantTransactionId', undefined],
    ['payment', { merchantTransactionId: '0000004111111111' }, 'merchantTransactionId', undefined],
    ['payment', { merchantTransactionId: '20340517100000000017' }, 'merchantTransactionId', undefined],
    ['payment', { 'standingInstruction.initialTransactionId': '123456789012348' }, 'standingInstruction.initialTransactionId', undefined],
    ['payment', { 'shipping.trackingNumber': '9400 1000 0000 0000 0000 00' }, 'shipping.trackingNumber', undefined],
    ['payment', { 'sender.accountNumber': PAN }, 'sender.accountNumber', undefined],
  ];
  for (const [endpoint, body, name, code] of cases) assert.equal(issueOf(endpoint, body, name)?.code, code, `${endpoint} ${name}`);
});

test('control characters: refused in one-line fields, tab and line breaks admitted where text spans lines', () => {
  const cases: [body: Record<string, string>, name: string, message: string | undefined][] = [
    [{ descriptor: 'a\u0000b' }, 'descriptor', 'must not contain control characters, tabs or line breaks'],
    [{ descriptor: 'two\nlines' }, 'descriptor', 'must not contain control characters, tabs or line breaks'],
    [{ merchantTransactionId: 'order\t0017' }, 'merchantTransactionId', 'must not contain control characters, tabs or line breaks'],
    [{ 'customParameters[note]': 'two\r\nlines\tand a tab' }, 'customParameters[note]', undefined],
    [{ 'customParameters[note]': 'nul\u0000' }, 'customParameters[note]', 'must not contain control characters'],
    [{ 'cart.items[0].description': 'a\nb' }, 'cart.items[0].description', undefined],
    [{ 'cart.items[0].name': 'a\nb' }, 'cart.items[0].name', 'must not contain control characters, tabs or line breaks'],
    [{ 'shipping.comment': 'ring\ntwice' }, 'shipping.comment', undefined],
    [{ 'shipping.comment': 'bell\u0007' }, 'shipping.comment', 'must not contain control characters'],
    [{ 'customer.browser.userAgent': 'Mozilla\r\nX-Injected: 1' }, 'customer.browser.userAgent', 'must not contain control characters, tabs or line breaks'],
    [{ 'billing.city': 'Del\u007f' }, 'billing.city', 'must not contain control characters, tabs or line breaks'],
  ];
  for (const [body, name, message] of cases) assert.equal(issueOf('payment', body, name)?.message, message, JSON.stringify(body));
  assert.equal(issueOf('query', { merchantTransactionId: 'a\u0000' }, 'merchantTransactionId')?.code, '200.300.404');
});

test('dates and times outside years 0001 to 9999 (UTC) are refused', () => {
  const cases: [endpoint: Endpoint, body: Record<string, string>, name: string, refused: boolean][] = [
    ['query', { 'date.from': '0000-01-01 00:00:00', 'date.to': '2034-01-01 00:00:00' }, 'date.from', true],
    ['query', { 'date.from': '0001-01-01 00:00:00', 'date.to': '9999-12-31 23:59:59' }, 'date.from', false],
    ['reporting', { 'date.from': '0000-12-31' }, 'date.from', true],
    ['registration', { 'recurringMigration.paymentType': 'DB', 'recurringMigration.requestTimestamp': '0001-01-01 00:00:00+0100' }, 'recurringMigration.requestTimestamp', true],
    ['registration', { 'recurringMigration.paymentType': 'DB', 'recurringMigration.requestTimestamp': '9999-12-31 23:00:00-0200' }, 'recurringMigration.requestTimestamp', true],
    ['registration', { 'recurringMigration.paymentType': 'DB', 'recurringMigration.requestTimestamp': '2024-05-17 10:00:00+0200' }, 'recurringMigration.requestTimestamp', false],
  ];
  for (const [endpoint, body, name, refused] of cases) assert.equal(issueOf(endpoint, body, name) !== undefined, refused, `${name} ${JSON.stringify(body)}`);
});

test('values are masked before they are cut: a card number at the cut shows no more than 10 of its digits', () => {
  const descriptor = rowNamed('customParameters[name]');
  for (let start = MAX_DISPLAYED_LENGTH - 20; start <= MAX_DISPLAYED_LENGTH; start += 1) {
    const value = `${'x'.repeat(start)}${PAN}`;
    for (const shown of [displayRowValue(descriptor, value), displayUnknownValue('note', value), displayName(value)]) {
      assert.ok(!/[0-9]{11}/.test(shown), `cut at ${start}: ${shown}`);
    }
  }
});

test('no parameter error ever shows 12 digits in a row of a card number hidden in free text, at any position (property)', () => {
  const rows = ['descriptor', 'customParameters[note]', 'cart.items[0].name', 'merchantMemo', 'card.holder', 'unknownField', `customParameters[k${PAN}]`];
  fc.assert(
    fc.property(fc.constantFrom(...rows), fc.integer({ min: 0, max: 300 }), writtenCardNumber, words(40), (name, padding, card, after) => {
      const value = `${'y'.repeat(padding)} ${card.written}${after}`;
      const result = validateRequest('payment', { ...MINIMAL.payment, [name]: value } as RequestBody, CONTEXT);
      assert.equal(result.ok, false);
      for (const error of result.ok ? [] : result.parameterErrors) {
        assert.ok(!LONG_DIGIT_RUN.test(error.value) && !LONG_DIGIT_RUN.test(error.name), `${error.name}: ${error.value}`);
        assert.ok(!error.value.includes(card.number) && !error.value.includes(card.written));
      }
    }),
    { numRuns: 400 },
  );
});
