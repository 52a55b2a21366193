import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { normalizeOutcome } from '../../../../src/connectors/connector.js';
import type { IsoMessage } from '../../../../src/connectors/iso8583/message.js';
import { readAnswer } from '../../../../src/connectors/iso8583/outcome.js';
import { EMULATOR_PROFILE, withFields } from '../../../../src/connectors/iso8583/profile.js';
import { ISO8583_RESPONSE_CODES, NO_CODE_ROW, OTHER_AMOUNT_ROW, UNKNOWN_CODE_ROW, type ResponseCodeRow } from '../../../../src/connectors/iso8583/response-codes.js';

const DOC = readFileSync(new URL('../../../../docs/connectors.md', import.meta.url), 'utf8');
const request: IsoMessage = { mti: '0200', fields: { 4: '000000001000', 11: '000123' } };
const answer = (field39: string | undefined, extra: Record<number, string> = {}): IsoMessage => {
  const fields: Record<number, string> = { 4: '000000001000', 11: '000123', 37: '632800000001', 38: 'A00001', 44: 'ZM', ...extra };
  if (field39 !== undefined) fields[39] = field39;
  return { mti: '0210', fields };
};
const references = { clearingInstituteName: 'Acquirer Host Emulator', ConnectorTxID1: '632800000001', ConnectorTxID2: '000123', ConnectorTxID3: 'A00001' };

describe('ISO 8583 answers to outcomes: field 39 through the table, field 4 against the request', () => {
  const rows = [
    { name: '00', answer: answer('00'), kind: 'success', code: '000.000.000', notProcessed: undefined, reverse: false },
    { name: '08', answer: answer('08'), kind: 'success', code: '000.000.000', notProcessed: undefined, reverse: false },
    { name: '11 (approved, VIP)', answer: answer('11'), kind: 'success', code: '000.000.000', notProcessed: undefined, reverse: false },
    { name: '05', answer: answer('05'), kind: 'declined', code: '800.100.152', notProcessed: undefined, reverse: false },
    { name: '51', answer: answer('51'), kind: 'declined', code: '800.100.203', notProcessed: undefined, reverse: false },
    { name: 'N7', answer: answer('N7'), kind: 'declined', code: '800.100.153', notProcessed: undefined, reverse: false },
    { name: '91', answer: answer('91'), kind: 'declined', code: '900.100.400', notProcessed: true, reverse: false },
    { name: '96', answer: answer('96'), kind: 'declined', code: '900.100.201', notProcessed: true, reverse: false },
    { name: '10 (partial approval)', answer: answer('10', { 4: '000000000500' }), kind: 'declined', code: '900.100.200', notProcessed: undefined, reverse: true },
    { name: 'Q9 (a code no table knows)', answer: answer('Q9'), kind: 'declined', code: '900.100.200', notProcessed: undefined, reverse: true },
    { name: 'no field 39', answer: answer(undefined), kind: 'declined', code: '900.100.200', notProcessed: undefined, reverse: true },
    { name: 'an empty field 39', answer: answer('  '), kind: 'declined', code: '900.100.200', notProcessed: undefined, reverse: true },
    { name: '00 for another amount (field 4)', answer: answer('00', { 4: '000000000999' }), kind: 'declined', code: '900.100.200', notProcessed: undefined, reverse: true },
    { name: '08 for another amount (field 4)', answer: answer('08', { 4: '000000002000' }), kind: 'declined', code: '900.100.200', notProcessed: undefined, reverse: true },
    { name: '00 with a field 4 that is not digits', answer: answer('00', { 4: '00000000100x' }), kind: 'declined', code: '900.100.200', notProcessed: undefined, reverse: true },
    { name: '05 for another amount (a decline stays a decline)', answer: answer('05', { 4: '000000000999' }), kind: 'declined', code: '800.100.152', notProcessed: undefined, reverse: false },
  ] as const;
  for (const row of rows) {
    it(`${row.name} → ${row.kind} ${row.code}${row.reverse ? ', reversed by advice' : ''}`, () => {
      const { outcome, mayHaveMovedMoney } = readAnswer(row.answer, request, EMULATOR_PROFILE, '000.000.000');
      assert.equal(outcome.kind, row.kind);
      assert.equal(outcome.code, row.code);
      assert.equal(mayHaveMovedMoney, row.reverse);
      assert.equal(outcome.notProcessed, row.notProcessed);
      const field39 = row.answer.fields[39];
      assert.deepEqual(outcome.resultDetails, { ...(field39 === undefined ? {} : { AcquirerResponse: field39 }), ...references });
      assert.equal(outcome.avsResponse, 'Z');
      assert.equal(outcome.cvvResponse, 'M');
      assert.equal(normalizeOutcome(outcome).notProcessed, row.notProcessed, 'normalisation keeps the flag on declines');
    });
  }
  it('an approval that leaves field 4 out approves the request\'s amount', () => {
    const { 4: _amount, ...fields } = answer('00').fields;
    assert.equal(readAnswer({ mti: '0210', fields }, request, EMULATOR_PROFILE, '000.000.000').outcome.kind, 'success');
  });
  it('a profile replaces rows of the standard table', () => {
    const profile = { ...withFields(EMULATOR_PROFILE, 'x', []), responseCodes: { '05': { verdict: 'declined' as const, code: '800.100.160', meaning: 'x' } } };
    assert.equal(readAnswer(answer('05'), request, profile, '000.000.000').outcome.code, '800.100.160');
  });
  it('normalisation drops notProcessed from anything but a decline', () => {
    assert.equal(normalizeOutcome({ kind: 'success', code: '000.000.000', resultDetails: {}, notProcessed: true }).notProcessed, undefined);
  });
});

describe('docs/connectors.md shows the field 39 table as the connector reads it', () => {
  const becomes = (row: ResponseCodeRow): string =>
    row.verdict === 'approved' ? 'success' : row.verdict === 'declined' ? `declined \`${row.code}\`` : row.verdict === 'technical' ? `declined \`${row.code}\`, technical` : `reversal advice, declined \`${row.code}\``;
  for (const [code, row] of Object.entries(ISO8583_RESPONSE_CODES)) {
    it(`\`${code}\`: ${row.meaning}`, () => assert.ok(DOC.includes(`| \`${code}\` | ${row.meaning} | ${becomes(row)} |`), `docs/connectors.md lacks the row of ${code}`));
  }
  for (const [name, row] of [['any other', UNKNOWN_CODE_ROW], ['(none)', NO_CODE_ROW], ['approval, other field 4', OTHER_AMOUNT_ROW]] as const) {
    it(`${name}: ${row.meaning}`, () => assert.ok(DOC.includes(`| ${name} | ${row.meaning} | ${becomes(row)} |`), `docs/connectors.md lacks the row of ${name}`));
  }
});
