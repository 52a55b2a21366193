import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { containsCardNumber, hasDigitRun, maskDigitRuns } from '../../../src/domain/card-numbers-in-text.js';
import { controlCharacterProblem } from '../../../src/domain/control-characters.js';
import { maskPanLikeDigits } from '../../../src/domain/redact.js';
import { LONG_DIGIT_RUN, words, writtenCardNumber } from '../../support/card-numbers.js';

test('a Luhn-valid run of 13 to 19 digits is a card number, whole or split by spaces or dashes', () => {
  const cases: [text: string, found: boolean, why: string][] = [
    ['4111111111111111', true, 'plain 16 digits'],
    ['4111 1111 1111 1111', true, 'groups of four'],
    ['4111-1111-1111-1111', true, 'dashes'],
    ['4111\u00a01111\u20131111 1111', true, 'no-break space and en dash'],
    ['Order 4111111111111111, thanks', true, 'inside text'],
    ['name:4111111111111111', true, 'after punctuation'],
    ['Order 12345 4111 1111 1111 1111', true, 'after another number in the same chain'],
    ['4111 1111 1111 1111 17', true, 'before another group'],
    ['377777777777770', true, 'AMEX, 15 digits'],
    ['4222222222222', true, '13 digits'],
    ['6759649826438453', true, 'MAESTRO'],
    ['4111111111111112', false, 'not Luhn-valid'],
    ['79927398713', false, 'Luhn-valid but 11 digits'],
    ['0000000000000000', false, 'begins with 0: no issuer'],
    ['0004111111111111', false, 'zero-padded reference'],
    ['41111111111111111111', false, 'a run of 20 digits is a reference, not a card number'],
    ['74111111111111111', false, 'a digit glued on makes another (non-Luhn) number'],
    ['4111  1111 1111 1111', true, 'a double space still joins: a run of separators is one separator'],
    ['4111 - 1111 - 1111 - 1111', true, 'spaced dashes'],
    ['4111.1111.1111.1111', true, 'dots join groups of a number in a known range (issue 29; the other forms in card-numbers-separators.test.ts)'],
    ['2034-05-17 10:00:00', false, 'a date'],
    ['1234567890.00', false, 'an amount'],
    ['', false, 'empty'],
  ];
  for (const [text, found, why] of cases) assert.equal(containsCardNumber(text), found, `${why}: ${text}`);
});

test('phone numbers are checked from 16 digits: 13 to 15 digits of an E.164 number stay admitted', () => {
  // +49 151 1234 5678: 13 digits, Luhn-valid by chance (as one in ten numbers are).
  assert.equal(containsCardNumber('+49 151 1234 5678'), true);
  assert.equal(containsCardNumber('+49 151 1234 5678', 16), false);
  assert.equal(containsCardNumber('4111 1111 1111 1111', 16), true);
});

test('display masking: every run of 12 or more digits shows as first six and last four, whatever the separators', () => {
  const cases: [text: string, shown: string][] = [
    ['4111111111111111', '411111******1111'],
    ['x 4111-1111-1111-1111 y', 'x 411111******1111 y'],
    ['4111  1111  1111  1111', '411111******1111'],
    ['123456789012', '****'],
    ['12345678901', '12345678901'],
    ['2034-05-17 10:00:00', '2034-05-17 10:00:00'],
    // A 30-digit run is masked whole: chunks of 19 would leave the last 11 digits beside the last four.
    ['1234567890123456789012345678901', '123456*********************8901'],
  ];
  for (const [text, shown] of cases) assert.equal(maskDigitRuns(text), shown, text);
  assert.equal(maskPanLikeDigits('/v1/payments/4111111111111111'), '/v1/payments/411111******1111');
  assert.equal(hasDigitRun('a 1234 5678 9012'), true);
  assert.equal(hasDigitRun('a 1234 5678 901'), false);
});

test('masked text never holds 12 digits in a row of any number hidden in it (property)', () => {
  fc.assert(
    fc.property(words(40), fc.array(fc.constantFrom('0', '7', ' ', '-', '  '), { maxLength: 30 }), writtenCardNumber, words(40), (before, noise, card, after) => {
      const masked = maskDigitRuns(`${before}${noise.join('')}${card.written}${after}`);
      assert.ok(!LONG_DIGIT_RUN.test(masked), masked);
    }),
    { numRuns: 500 },
  );
});

test('a card number written with single spaces or dashes between text without digits is always found (property)', () => {
  fc.assert(
    fc.property(words(30), writtenCardNumber, words(30), (before, card, after) => {
      assert.ok(containsCardNumber(`${before}${card.written}${after}`), card.written);
    }),
    { numRuns: 500 },
  );
});

test('control characters: NUL, C0 and DEL never; tab and line breaks only where text spans lines', () => {
  const cases: [text: string, oneLine: boolean, lines: boolean][] = [
    ['Jane Jones', true, true],
    ['a\u0000b', false, false],
    ['a\u001bb', false, false],
    ['a\u007fb', false, false],
    ['line\nbreak', false, true],
    ['crlf\r\n', false, true],
    ['tab\there', false, true],
    ['ü € 💳 \u0080 \u200b', true, true],
  ];
  for (const [text, oneLine, lines] of cases) {
    assert.equal(controlCharacterProblem(text) === undefined, oneLine, `one line: ${JSON.stringify(text)}`);
    assert.equal(controlCharacterProblem(text, 'allowed') === undefined, lines, `lines: ${JSON.stringify(text)}`);
  }
});
