import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CARD_NUMBER_CODE } from '../../../src/catalogue/card-number-fields.js';
import { validateRequest } from '../../../src/catalogue/engine.js';
import { displayRowValue, displayUnknownValue } from '../../../src/catalogue/mask.js';
import { CATALOGUE } from '../../../src/catalogue/catalogue.js';
import type { RequestBody } from '../../../src/catalogue/types.js';
import { containsCardNumber, maskDigitRuns } from '../../../src/domain/card-numbers-in-text.js';
import { maskPanLikeDigits } from '../../../src/domain/redact.js';
import fc from 'fast-check';
import { luhnComplete, separatorForms, words } from '../../support/card-numbers.js';
import { CONTEXT, MINIMAL } from '../catalogue/fixtures.js';

/**
 * Issue 29, item 6: a card number written with other separators, invisible characters or
 * compatibility digits is still a card number, in every free-text field and in the partly exempt
 * phone and identity-document fields; real phone and document numbers, dates, amounts and
 * addresses still pass.
 */

const PAN = '4111111111111111';
const joined = (separator: string, pan = PAN) => pan.match(/.{1,4}/g)!.join(separator);
const fullWidth = (text: string) => text.replace(/[0-9]/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));

/** Every separator form of item 6, each a row: [form, written]. */
const SEPARATOR_FORMS: readonly (readonly [form: string, written: string])[] = [
  ...separatorForms(PAN),
  ['AMEX in dots', '3782.822463.10005'],
  ['MASTER in slashes', joined('/', '5454545454545454')],
  ['in text after an order number', `order 17, ${joined('.')} thanks`],
];

test('every separator form of a card number is found, refused in free text and masked in displays', () => {
  const freeText = ['descriptor', 'merchantTransactionId', 'customParameters[note]', 'customer.givenName', 'billing.street1', 'cart.items[0].name', 'shipping.comment'];
  for (const [form, written] of SEPARATOR_FORMS) {
    assert.equal(containsCardNumber(written), true, `found: ${form}`);
    for (const name of freeText) {
      const result = validateRequest('payment', { ...MINIMAL.payment, [name]: written } as RequestBody, CONTEXT);
      const found = result.ok ? undefined : result.issues.find((entry) => entry.name === name);
      assert.equal(found?.code, CARD_NUMBER_CODE, `${name} refuses ${form}`);
      assert.ok(!/[0-9]{7}/.test(found.value), `${name} shows ${form} masked: ${found.value}`);
    }
    assert.match(maskDigitRuns(written), /^(order 17, )?(411111\*{6}1111|378282\*{5}0005|545454\*{6}5454)( thanks)?$/, `masked: ${form}`);
    assert.equal(maskPanLikeDigits(`/v1/payments/${written}`).includes('1111111'), false, `log path: ${form}`);
    assert.equal(displayUnknownValue('note', written), '****', `unknown parameter: ${form}`);
  }
});

test('exempt phone and identity-document fields: a card number of a known range and length is refused, real numbers pass', () => {
  const cases: [name: string, value: string, refused: boolean, why: string][] = [
    ['customer.identificationDocId', PAN, true, 'VISA, 16 digits'],
    ['customer.identificationDocId', joined(' '), true, 'VISA in groups'],
    ['customer.identificationDocId', joined('.'), true, 'VISA in dots'],
    ['shipping.customer.identificationDocId', '378282246310005', true, 'AMEX, 15 digits'],
    ['customer.identificationDocId', '5454545454545454', true, 'MASTER'],
    ['customer.identificationDocId', fullWidth(PAN), true, 'full-width VISA'],
    ['customer.identificationDocId', '440304199001011239', false, 'an 18-digit resident identity number (China), Luhn-valid by chance'],
    ['customer.identificationDocId', '11010519491231002X', false, 'a resident identity number with its X check character'],
    ['customer.identificationDocId', '8001015009087', false, 'a South African identity number: 13 digits, Luhn-valid by design'],
    ['customer.identificationDocId', '4111111111111112', false, '16 digits in the VISA range, not Luhn-valid'],
    ['customer.identificationDocId', 'X1234567', false, 'a passport number'],
    ['customer.phone', '+378282246310005', true, 'AMEX behind a plus sign: no San Marino number has 12 digits'],
    ['customer.phone', '+378 2822 4631 0005', true, 'the same in groups'],
    ['customer.phone', '+378.282.246.310.005', true, 'the same in dots'],
    ['customer.mobile', '+36 2272 0627 1667', true, 'DINERS, 14 digits'],
    ['customer.phone', '+49 151 1234 5678', false, 'a German mobile number, Luhn-valid 13 digits'],
    ['customer.phone', '+62 1234 5678 903', false, 'an Indonesian number in the UNIONPAY range, Luhn-valid 13 digits'],
    ['customer.phone', '+1 (555) 123-4567', false, 'a US number with brackets'],
    ['customer.phone', '+44 20 7946 0958', false, 'a London number'],
    ['shipping.workPhone', joined('/'), true, 'VISA in slashes (not a phone number whatever the field)'],
  ];
  const row = (name: string) => CATALOGUE.find((entry) => entry.name === name);
  for (const [name, value, refused, why] of cases) {
    const result = validateRequest('payment', { ...MINIMAL.payment, [name]: value } as RequestBody, CONTEXT);
    const found = result.ok ? undefined : result.issues.find((entry) => entry.name === name);
    assert.equal(found?.code === CARD_NUMBER_CODE, refused, `${name}=${value}: ${why} (${found?.code ?? 'accepted'})`);
    if (refused) assert.ok(!/[0-9]{7}/.test(found!.value), `shown masked: ${found!.value}`);
    if (row(name)) assert.equal(displayRowValue(row(name)!, value).includes(value) && refused, false, `display of ${name}`);
  }
});

test('dates, times, amounts, addresses and lists of numbers are not card numbers, whatever their separators', () => {
  const cases: [text: string, why: string][] = [
    ['2034-05-17 10:00:00', 'a date and time'],
    ['2026.11.27 01:45:00.123', 'a dotted date and time with milliseconds'],
    ['1.234.567.890,12 EUR', 'an amount with thousands separators'],
    ['192.168.100.200, 10.0.0.1', 'IP addresses'],
    ['Flat 12/3, 45 Long Road, 7000', 'an address'],
    ['qty 3, ids 12345,67890,11111', 'a list of ids'],
    ['4111.1111.1111.1112', 'VISA range in dots, not Luhn-valid'],
    ['4111.....1111.....1111.....1111', 'separator runs longer than four characters are not one number'],
    ['4222.2222.22222', 'Luhn-valid 13 digits in dots: VISA does not issue 13 digits today'],
  ];
  for (const [text, why] of cases) assert.equal(containsCardNumber(text), false, `${why}: ${text}`);
  for (const [text] of cases.slice(0, 6)) assert.equal(maskDigitRuns(text), text, `shown as it is: ${text}`);
  assert.equal(containsCardNumber('SKU 6011_0009_9013_9424x'), true, 'a DISCOVER number in underscores, a letter glued on');

});

/** A number as a brand issues it: VISA and MASTER 16 digits, AMEX 15, DINERS 14, DISCOVER 16. */
const issuedNumber = fc
  .tuple(fc.constantFrom(['4', 16], ['51', 16], ['2221', 16], ['37', 15], ['36', 14], ['6011', 16]), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }))
  .map(([[prefix, length], rest]) => luhnComplete(`${prefix}${rest.join('').slice(0, (length as number) - (prefix as string).length - 1)}`));
/** One to four characters that are neither letters nor digits, as a separator run. */
const separatorRun = fc.string({ unit: fc.constantFrom('.', '/', '_', ',', '+', '*', ':', ' ', '-', '\u200b', '\u3000', '\uff0e', '#', '|'), minLength: 1, maxLength: 4 });

test('a number of a known brand split anywhere by short runs of any separators, between text without digits, is always found and masked (property)', () => {
  fc.assert(
    fc.property(words(20), issuedNumber, fc.array(fc.option(separatorRun, { nil: undefined, freq: 2 }), { minLength: 19, maxLength: 19 }), words(20), (before, number, runs, after) => {
      const written = [...number].map((digit, index) => (index === 0 ? digit : (runs[index] ?? '') + digit)).join('');
      const text = `${before} ${written} ${after}`;
      assert.ok(containsCardNumber(text), JSON.stringify(text));
      assert.ok(!maskDigitRuns(text).normalize('NFKC').replace(/[^0-9]/g, '').includes(number), maskDigitRuns(text));
    }),
    { numRuns: 500 },
  );
});
