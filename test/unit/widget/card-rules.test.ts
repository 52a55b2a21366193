import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brandOf, caretAfterFormat, cvvLengthOf, cvvState, digitsOf, formatCardNumber, numberState } from '../../../widget/src/rules/card-number.js';
import { expiryState, formatExpiryInput, parseExpiry } from '../../../widget/src/rules/expiry.js';
import { cvvProblem, expiryProblem, holderProblem, numberProblem, SERVER_FIELD_ERRORS } from '../../../widget/src/rules/card-checks.js';

const CARDS = ['VISA', 'MASTER', 'AMEX'];

describe('widget: brand detection as the number is typed', () => {
  const cases: [typed: string, accepted: string[], brand: string | undefined, detected: string | undefined][] = [
    ['', CARDS, undefined, undefined],
    ['4', CARDS, 'VISA', 'VISA'],
    ['4200 0000', CARDS, 'VISA', 'VISA'],
    ['51', CARDS, 'MASTER', 'MASTER'],
    ['2221', CARDS, 'MASTER', 'MASTER'],
    ['34', CARDS, 'AMEX', 'AMEX'],
    ['37', CARDS, 'AMEX', 'AMEX'],
    ['4', ['VISADEBIT', 'VISA'], 'VISADEBIT', 'VISADEBIT'],
    ['34', ['VISA', 'MASTER'], undefined, 'AMEX'],
    ['6011', ['VISA'], undefined, 'DISCOVER'],
    ['9', CARDS, undefined, undefined],
  ];
  for (const [typed, accepted, brand, detected] of cases) {
    it(`"${typed}" with ${accepted.join(' ')} → ${brand ?? '-'} (ranges say ${detected ?? '-'})`, () => {
      assert.deepEqual(brandOf(digitsOf(typed), accepted), { brand, detected });
    });
  }
});

describe('widget: number verdicts (length and Luhn before submit)', () => {
  const cases: [typed: string, accepted: string[], state: string][] = [
    ['', CARDS, 'empty'],
    ['4200', CARDS, 'incomplete'],
    ['4200 0000 0000 0000', CARDS, 'valid'],
    ['4200 0000 0000 0001', CARDS, 'invalid'],
    ['4111-1111-1111-1111', CARDS, 'valid'],
    ['5454 5454 5454 5454', CARDS, 'valid'],
    ['3782 822463 10005', CARDS, 'valid'],
    ['3782 822463 10006', CARDS, 'invalid'],
    ['3782 822463 10005', ['VISA', 'MASTER'], 'unsupported'],
    ['4200 0000 0000 0000 0', CARDS, 'invalid'],
    ['9999 9999 9999 9995', CARDS, 'valid'],
  ];
  for (const [typed, accepted, state] of cases) {
    it(`"${typed}" → ${state}`, () => assert.equal(numberState(digitsOf(typed), accepted), state));
  }
});

describe('widget: number formatting and the caret', () => {
  const cases: [digits: string, brand: string | undefined, formatting: boolean, shown: string][] = [
    ['4200000000000000', 'VISA', true, '4200 0000 0000 0000'],
    ['42000', 'VISA', true, '4200 0'],
    ['4200000000000000', 'VISA', false, '4200000000000000'],
    ['378282246310005', 'AMEX', true, '3782 822463 10005'],
    ['36227206271667', 'DINERS', true, '3622 720627 1667'],
    ['4200000000000000000', 'VISA', true, '4200 0000 0000 0000 000'],
    ['', undefined, true, ''],
  ];
  for (const [digits, brand, formatting, shown] of cases) {
    it(`${digits} (${brand ?? '-'}, formatting ${formatting}) → "${shown}"`, () => assert.equal(formatCardNumber(digits, brand, formatting), shown));
  }
  const carets: [formatted: string, digitsBefore: number, caret: number][] = [
    ['4200 0', 5, 6],
    ['4200 0', 4, 4],
    ['4200 0000', 0, 0],
    ['4200 0000', 6, 7],
    ['42', 9, 2],
  ];
  for (const [formatted, digitsBefore, caret] of carets) {
    it(`caret after ${digitsBefore} digits of "${formatted}" → ${caret}`, () => assert.equal(caretAfterFormat(formatted, digitsBefore), caret));
  }
  it('digitsOf keeps at most 19 digits', () => assert.equal(digitsOf('4'.repeat(25)).length, 19));
});

describe('widget: CVV', () => {
  const cases: [cvv: string, brand: string | undefined, state: string][] = [
    ['', 'VISA', 'empty'],
    ['12', 'VISA', 'incomplete'],
    ['123', 'VISA', 'valid'],
    ['123', 'AMEX', 'incomplete'],
    ['1234', 'AMEX', 'valid'],
    ['123', undefined, 'valid'],
  ];
  for (const [cvv, brand, state] of cases) it(`"${cvv}" for ${brand ?? 'no brand'} → ${state}`, () => assert.equal(cvvState(cvv, brand), state));
  it('AMEX has four digits, the rest three', () => assert.deepEqual([cvvLengthOf('AMEX'), cvvLengthOf('VISA'), cvvLengthOf(undefined)], [4, 3, 3]));
});

describe('widget: expiry', () => {
  const now = new Date('2026-11-24T03:00:00Z');
  const parsed: [input: string, month: string | undefined, year: string | undefined][] = [
    ['12/30', '12', '2030'],
    ['12 / 30', '12', '2030'],
    ['1230', '12', '2030'],
    ['1/30', '01', '2030'],
    ['12/2030', '12', '2030'],
    ['13/30', undefined, undefined],
    ['00/30', undefined, undefined],
    ['130', undefined, undefined],
    ['ab', undefined, undefined],
  ];
  for (const [input, month, year] of parsed) {
    it(`"${input}" → ${month ?? '-'}/${year ?? '-'}`, () => assert.deepEqual(parseExpiry(input), month ? { month, year } : undefined));
  }
  const states: [input: string, state: string][] = [
    ['', 'empty'],
    ['1', 'incomplete'],
    ['11 / 26', 'valid'],
    ['10 / 26', 'expired'],
    ['01 / 27', 'valid'],
    ['12 / 99', 'invalid'],
    ['13 / 27', 'invalid'],
  ];
  for (const [input, state] of states) it(`"${input}" on 2026-11-24 → ${state}`, () => assert.equal(expiryState(input, now), state));
  const typing: [input: string, deleting: boolean, shown: string][] = [
    ['1', false, '1'],
    ['4', false, '04 / '],
    ['12', false, '12 / '],
    ['123', false, '12 / 3'],
    ['12 / 30', false, '12 / 30'],
    ['12 / ', true, '12 / '],
  ];
  for (const [input, deleting, shown] of typing) it(`typing "${input}"${deleting ? ' (deleting)' : ''} shows "${shown}"`, () => assert.equal(formatExpiryInput(input, deleting), shown));
});

describe('widget: what the card form says before sending', () => {
  const now = new Date('2026-11-24T03:00:00Z');
  const cases: [name: string, problem: string | null, expected: string | null][] = [
    ['a valid number', numberProblem('valid'), null],
    ['an incomplete number', numberProblem('incomplete'), 'cardNumberError'],
    ['an empty number', numberProblem('empty'), 'cardNumberError'],
    ['a brand not accepted', numberProblem('unsupported'), 'brandNotAccepted'],
    ['a whole CVV', cvvProblem('valid', 'VISA'), null],
    ['no CVV for VISA', cvvProblem('empty', 'VISA'), 'cvvError'],
    ['no CVV for MAESTRO', cvvProblem('empty', 'MAESTRO'), null],
    ['half a CVV for MAESTRO', cvvProblem('incomplete', 'MAESTRO'), 'cvvError'],
    ['an empty expiry while typing', expiryProblem('', now, false), null],
    ['an empty expiry at payment', expiryProblem('', now, true), 'expiryDateError'],
    ['a past expiry', expiryProblem('10 / 26', now, false), 'expiredError'],
    ['this month', expiryProblem('11 / 26', now, true), null],
    ['an empty holder while typing', holderProblem(' ', false), null],
    ['an empty holder at payment', holderProblem('', true), 'cardHolderError'],
    ['one letter', holderProblem('J', false), 'cardHolderError'],
    ['a name', holderProblem('Jane Jones', true), null],
    ['129 letters', holderProblem('J'.repeat(129), true), 'cardHolderError'],
  ];
  for (const [name, problem, expected] of cases) it(`${name} → ${expected ?? 'fine'}`, () => assert.equal(problem, expected));
  it("the gateway's refusals land at their fields", () => {
    assert.deepEqual(SERVER_FIELD_ERRORS['card.number'], ['number', 'cardNumberError']);
    assert.deepEqual(SERVER_FIELD_ERRORS['card.expiryYear'], ['expiry', 'expiryDateError']);
    assert.equal(SERVER_FIELD_ERRORS['customParameters[x]'], undefined);
  });
});
