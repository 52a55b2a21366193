import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CARD_BRANDS,
  brandMatchesNumber,
  cardBin,
  cardBrand,
  cardLast4,
  detectCardBrand,
  isCardExpired,
  isLuhnValid,
  maskCardNumber,
} from '../../../src/domain/card.js';

test('Luhn check digit', () => {
  const cases: [string, boolean][] = [
    ['4200000000000000', true],
    ['4200000000000001', false],
    ['5454545454545454', true],
    ['377777777777770', true],
    ['377777777777771', false],
    ['79927398713', true],
    ['0', true],
    ['', false],
    ['42a0', false],
  ];
  for (const [digits, valid] of cases) assert.equal(isLuhnValid(digits), valid, digits);
});

test('brand detection maps number ranges to gateway brands', () => {
  const cases: [string, string | undefined][] = [
    ['4200000000000000', 'VISA'],
    ['5454545454545454', 'MASTER'],
    ['2221000000000009', 'MASTER'],
    ['377777777777770', 'AMEX'],
    ['30569309025904', 'DINERS'],
    ['6011111111111117', 'DISCOVER'],
    ['3530111333300000', 'JCB'],
    ['6759649826438453', 'MAESTRO'],
    ['6200000000000005', 'UNIONPAY'],
    ['9999999999999999', undefined],
  ];
  for (const [number, brand] of cases) assert.equal(detectCardBrand(number), brand, number);
});

test('brand and number match, and brands outside the table are not judged', () => {
  assert.equal(brandMatchesNumber('VISA', '4200000000000000'), true);
  assert.equal(brandMatchesNumber('VISADEBIT', '4200000000000000'), true);
  assert.equal(brandMatchesNumber('MASTER', '4200000000000000'), false);
  assert.equal(brandMatchesNumber('AMEX', '5454545454545454'), false);
  assert.equal(brandMatchesNumber('PRIVATE_LABEL', '4200000000000000'), undefined);
});

test('the CVV table: VISA, MASTER, AMEX need one, MAESTRO does not', () => {
  assert.equal(cardBrand('VISA')?.cvv, 'required');
  assert.equal(cardBrand('MASTER')?.cvv, 'required');
  assert.equal(cardBrand('AMEX')?.cvv, 'required');
  assert.equal(cardBrand('AMEX')?.cvvLength, 4);
  assert.equal(cardBrand('MAESTRO')?.cvv, 'optional');
  assert.equal(new Set(CARD_BRANDS.map((brand) => brand.brand)).size, CARD_BRANDS.length);
});

test('a card is valid through the last day of its expiry month (UTC)', () => {
  const cases: [number, number, string, boolean][] = [
    [11, 2026, '2026-11-30T23:59:59Z', false],
    [11, 2026, '2026-12-01T00:00:00Z', true],
    [10, 2026, '2026-11-01T00:00:00Z', true],
    [12, 2025, '2026-01-15T00:00:00Z', true],
    [1, 2027, '2026-12-31T23:59:59Z', false],
  ];
  for (const [month, year, now, expired] of cases) assert.equal(isCardExpired(month, year, new Date(now)), expired, `${month}/${year} at ${now}`);
});

test('masking shows first six and last four digits at most', () => {
  assert.equal(maskCardNumber('4200000000000000'), '420000******0000');
  assert.equal(maskCardNumber('377777777777770'), '377777*****7770');
  assert.equal(maskCardNumber('42000000'), '****');
  assert.equal(maskCardNumber('1'.repeat(100_000)).length, 32);
  assert.equal(cardBin('4200000000000000'), '420000');
  assert.equal(cardLast4('4200000000000000'), '0000');
});
