import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountLast4, isValidBic, isValidIban, maskAccountNumber } from '../../../src/domain/bank.js';

test('IBAN: country length and mod-97 checksum', () => {
  const cases: [string, boolean][] = [
    ['DE23100000001234567890', true],
    ['GB29NWBK60161331926819', true],
    ['DE23100000001234567891', false],
    ['DE2310000000123456789', false],
    ['XX23100000001234567890', false],
    ['de23100000001234567890', false],
    ['', false],
  ];
  for (const [iban, valid] of cases) assert.equal(isValidIban(iban), valid, iban);
});

test('BIC: 8 or 11 characters with a real country', () => {
  const cases: [string, boolean][] = [
    ['MARKDEF1100', true],
    ['MARKDEFF', true],
    ['markdeff', true],
    ['MARKXXFF', false],
    ['MARKDEF110', false],
    ['', false],
  ];
  for (const [bic, valid] of cases) assert.equal(isValidBic(bic), valid, bic);
});

test('account numbers are shown by their last four characters only', () => {
  assert.equal(accountLast4('DE23100000001234567890'), '7890');
  assert.equal(maskAccountNumber('DE23100000001234567890'), '****7890');
  assert.equal(maskAccountNumber('1234'), '****');
});
