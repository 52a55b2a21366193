import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { amountPatternSource, formatAmount, parseAmount, tryParseAmount } from '../../../src/domain/money.js';

test('parseAmount reads wire amounts exactly into hundredths', () => {
  const cases: [string, bigint][] = [
    ['92.00', 9200n],
    ['92', 9200n],
    ['0.01', 1n],
    ['0.10', 10n],
    ['0', 0n],
    ['0092.50', 9250n],
    ['9999999999.99', 999999999999n],
    ['12345678901234567890.12', 1234567890123456789012n],
  ];
  for (const [text, minor] of cases) assert.equal(parseAmount(text), minor, text);
});

test('parseAmount refuses what is not a wire amount', () => {
  for (const text of ['', '-1.00', '1.5', '1.555', '1,00', ' 1.00', '1.00 ', '1e3', '.50', '1.', 'NaN', '٣.٠٠']) {
    assert.throws(() => parseAmount(text), RangeError, text);
    assert.equal(tryParseAmount(text), undefined, text);
  }
});

test('formatAmount writes two decimals, keeping the sign', () => {
  const cases: [bigint, string][] = [
    [9200n, '92.00'],
    [1n, '0.01'],
    [0n, '0.00'],
    [10n, '0.10'],
    [-5n, '-0.05'],
    [-12345n, '-123.45'],
    [999999999999n, '9999999999.99'],
  ];
  for (const [minor, text] of cases) assert.equal(formatAmount(minor), text, String(minor));
});

test('formatAmount and parseAmount are inverse for every non-negative amount', () => {
  fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (minor) => parseAmount(formatAmount(minor)) === minor));
});

test('the amount pattern follows the Conventions: N10.N2 with optional or mandatory decimals', () => {
  const optional = new RegExp(amountPatternSource(10));
  const mandatory = new RegExp(amountPatternSource(10, true));
  assert.equal(amountPatternSource(10), '^[0-9]{1,10}(\\.[0-9]{2})?$');
  assert.ok(optional.test('92') && optional.test('92.00') && optional.test('1234567890.12'));
  assert.ok(!optional.test('12345678901') && !optional.test('92.0') && !optional.test('-1'));
  assert.ok(mandatory.test('92.00') && !mandatory.test('92'));
});
