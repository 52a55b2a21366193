import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeMessage, encodeMessage } from '../../../../src/connectors/iso8583/codec.js';
import { Iso8583Error, type Iso8583ErrorReason } from '../../../../src/connectors/iso8583/errors.js';
import { fieldMap, type FieldSpec } from '../../../../src/connectors/iso8583/fields.js';
import type { IsoMessage } from '../../../../src/connectors/iso8583/message.js';
import { EMULATOR_BINARY_PROFILE, EMULATOR_PROFILE } from '../../../../src/connectors/iso8583/profile.js';

const PAN = '4200000000000000';
const common = { 3: '000000', 4: '000000001250', 7: '1124033000', 11: '000123', 12: '033000', 13: '1124', 41: 'TERM0001', 42: 'MERCHANT0000001', 49: '978' };

/** One message of every type the gateway and the host exchange. */
const MESSAGES: readonly { readonly name: string; readonly message: IsoMessage }[] = [
  { name: '0100 authorisation', message: { mti: '0100', fields: { ...common, 2: PAN, 14: '3012', 18: '5999', 22: '010', 32: '00000000001', 48: 'GW:8a8294174b7ecb28014b9699220015ca', 126: '123' } } },
  { name: '0110 authorisation response', message: { mti: '0110', fields: { ...common, 37: '432903000123', 38: 'A1B2C3', 39: '00', 44: 'AM', 48: 'GW:8a82' } } },
  { name: '0200 financial', message: { mti: '0200', fields: { ...common, 2: PAN, 14: '3012', 35: `${PAN}=3012101`, 45: `B${PAN}^HOLDER/JANE^3012101`, 52: '0123456789ABCDEF', 55: '9F2608AABBCCDDEEFF0011' } } },
  { name: '0210 financial response', message: { mti: '0210', fields: { ...common, 37: '432903000124', 38: '000000', 39: '51' } } },
  { name: '0200 refund', message: { mti: '0200', fields: { ...common, 3: '200000', 90: '0200000123112403300000000000010000000000000' .slice(0, 42) } } },
  { name: '0220 completion', message: { mti: '0220', fields: { ...common, 37: '432903000123', 38: 'A1B2C3', 54: '0001978C000000001250' } } },
  { name: '0230 completion response', message: { mti: '0230', fields: { ...common, 39: '00' } } },
  { name: '0400 reversal', message: { mti: '0400', fields: { ...common, 37: '432903000123', 95: '000000000000000000000000C00000000C00000000' } } },
  { name: '0410 reversal response', message: { mti: '0410', fields: { ...common, 39: '00' } } },
  { name: '0420 reversal advice', message: { mti: '0420', fields: { ...common, 39: '68', 48: 'GW:x', 90: '020000012311240330000000000001000000000000' } } },
  { name: '0421 repeated advice', message: { mti: '0421', fields: { ...common, 39: '68', 90: '020000012311240330000000000001000000000000' } } },
  { name: '0430 advice response', message: { mti: '0430', fields: { ...common, 39: '00' } } },
  { name: '0800 sign-on', message: { mti: '0800', fields: { 7: '1124033000', 11: '000001', 70: '001' } } },
  { name: '0810 echo response', message: { mti: '0810', fields: { 7: '1124033000', 11: '000002', 39: '00', 70: '301', 128: 'FFFFFFFF00000000' } } },
];

describe('ISO 8583 codec: every message type round-trips', () => {
  for (const profile of [EMULATOR_PROFILE, EMULATOR_BINARY_PROFILE]) {
    for (const { name, message } of MESSAGES) {
      it(`${name} (${profile.encoding})`, () => {
        const bytes = encodeMessage(message, profile);
        const back = decodeMessage(bytes, profile);
        assert.equal(back.mti, message.mti);
        assert.deepEqual(back.fields, Object.fromEntries(Object.entries(message.fields).map(([k, v]) => [k, typeof v === 'string' && /^[0-9a-f]+$/i.test(v) && profile.fields.get(Number(k))?.content === 'b' ? v.toUpperCase() : v])));
        assert.deepEqual(encodeMessage(back, profile), bytes, 'packing what was read gives the same bytes');
      });
    }
  }
});

const one = (spec: Omit<FieldSpec, 'number' | 'name'>) => ({ encoding: 'ascii' as const, fields: fieldMap([{ number: 2, name: 'x', ...spec }]) });
const bin = (spec: Omit<FieldSpec, 'number' | 'name'>) => ({ encoding: 'binary' as const, fields: fieldMap([{ number: 2, name: 'x', ...spec }]) });
/** MTI 0100 and a primary bitmap with only field 2, in each encoding. */
const ASCII_HEAD = '01004000000000000000';
const BINARY_HEAD = '01004000000000000000';

describe('ISO 8583 codec: field formats', () => {
  const rows = [
    { name: 'n fixed, ascii', profile: one({ content: 'n', lengthType: 'fixed', length: 6 }), value: '000123', ascii: '000123' },
    { name: 'n fixed odd, binary (left pad 0)', profile: bin({ content: 'n', lengthType: 'fixed', length: 3 }), value: '123', hex: '0123' },
    { name: 'n llvar, ascii', profile: one({ content: 'n', lengthType: 'llvar', length: 19 }), value: '4200000000000000', ascii: '164200000000000000' },
    { name: 'n llvar odd, binary', profile: bin({ content: 'n', lengthType: 'llvar', length: 19 }), value: '12345', hex: '05012345' },
    { name: 'an lllvar, ascii', profile: one({ content: 'an', lengthType: 'lllvar', length: 999 }), value: 'AB 12', ascii: '005AB 12' },
    { name: 'ans lllvar, binary (2-byte BCD prefix)', profile: bin({ content: 'ans', lengthType: 'lllvar', length: 999 }), value: 'a^b', hex: '0003615e62' },
    { name: 'z llvar, binary (= as D, pad F)', profile: bin({ content: 'z', lengthType: 'llvar', length: 37 }), value: '42=301', hex: '0642D301' },
    { name: 'z llvar odd, binary', profile: bin({ content: 'z', lengthType: 'llvar', length: 37 }), value: '4=3', hex: '034D3F' },
    { name: 'b fixed, ascii (hex text)', profile: one({ content: 'b', lengthType: 'fixed', length: 2 }), value: 'ABCD', ascii: 'ABCD' },
    { name: 'b fixed, binary (raw)', profile: bin({ content: 'b', lengthType: 'fixed', length: 2 }), value: 'ABCD', hex: 'abcd' },
    { name: 'b lllvar, binary', profile: bin({ content: 'b', lengthType: 'lllvar', length: 255 }), value: '00FF', hex: '000200ff' },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const bytes = encodeMessage({ mti: '0100', fields: { 2: row.value } }, row.profile);
      const body = row.profile.encoding === 'ascii' ? bytes.subarray(ASCII_HEAD.length).toString('latin1') : bytes.subarray(2 + 8).toString('hex');
      assert.equal(body, 'ascii' in row ? row.ascii : row.hex!.toLowerCase());
      assert.equal(decodeMessage(bytes, row.profile).fields[2], row.value);
    });
  }
  it('writes a secondary bitmap only when a field above 64 is present', () => {
    const withSecondary = encodeMessage({ mti: '0800', fields: { 70: '301' } }, EMULATOR_PROFILE);
    assert.equal(withSecondary.subarray(4, 36).toString('latin1'), '80000000000000000400000000000000');
    const without = encodeMessage({ mti: '0800', fields: { 11: '000001' } }, EMULATOR_PROFILE);
    assert.equal(without.subarray(4, 20).toString('latin1'), '0020000000000000');
    assert.equal(BINARY_HEAD.length, 20);
  });
});

function expectError(run: () => unknown, reason: Iso8583ErrorReason, field?: number): void {
  assert.throws(run, (error: unknown) => error instanceof Iso8583Error && error.reason === reason && error.field === field);
}

describe('ISO 8583 codec: what it refuses to pack', () => {
  const rows: { name: string; message: IsoMessage; reason: Iso8583ErrorReason; field?: number }[] = [
    { name: 'an MTI that is not four digits', message: { mti: '01A0', fields: { 11: '000001' } }, reason: 'bad-mti' },
    { name: 'a field the profile does not define', message: { mti: '0100', fields: { 5: '000000000001' } }, reason: 'unknown-field', field: 5 },
    { name: 'letters in a numeric field', message: { mti: '0100', fields: { 4: '00000000012A' } }, reason: 'bad-content', field: 4 },
    { name: 'a fixed field too short', message: { mti: '0100', fields: { 11: '123' } }, reason: 'bad-length', field: 11 },
    { name: 'an LLVAR field too long', message: { mti: '0100', fields: { 2: '4'.repeat(20) } }, reason: 'bad-length', field: 2 },
    { name: 'a control character in ans', message: { mti: '0100', fields: { 48: 'a\nb' } }, reason: 'bad-content', field: 48 },
    { name: 'odd hex in a binary field', message: { mti: '0100', fields: { 52: '0123456789ABCDE' } }, reason: 'bad-content', field: 52 },
  ];
  for (const row of rows) it(row.name, () => expectError(() => encodeMessage(row.message, EMULATOR_PROFILE), row.reason, row.field));
  it('an error never quotes the value', () => {
    try {
      encodeMessage({ mti: '0100', fields: { 2: '4'.repeat(25) } }, EMULATOR_PROFILE);
    } catch (error) {
      assert.doesNotMatch(String((error as Error).message), /4444/);
    }
  });
});

describe('ISO 8583 codec: malformed messages', () => {
  const good = encodeMessage({ mti: '0110', fields: { 11: '000123', 39: '00', 48: 'GW:abc' } }, EMULATOR_PROFILE);
  const ascii = (text: string) => Buffer.from(text, 'latin1');
  const rows: { name: string; bytes: Buffer; reason: Iso8583ErrorReason; field?: number }[] = [
    { name: 'empty', bytes: Buffer.alloc(0), reason: 'truncated' },
    { name: 'MTI not digits', bytes: ascii('01X00020000000000000000123'), reason: 'bad-mti' },
    { name: 'bitmap not hex', bytes: ascii('0110002000000000000G000123'), reason: 'bad-bitmap' },
    { name: 'empty bitmap', bytes: ascii('01100000000000000000'), reason: 'bad-bitmap' },
    { name: 'bit 65 (a third bitmap)', bytes: ascii('011080000000000000008000000000000000'), reason: 'bad-bitmap' },
    { name: 'a bit for an undefined field', bytes: ascii('01100800000000000000000000000001'), reason: 'unknown-field', field: 5 },
    { name: 'cut inside a fixed field', bytes: good.subarray(0, good.length - 10), reason: 'truncated', field: 39 },
    { name: 'cut inside a variable field', bytes: good.subarray(0, good.length - 2), reason: 'truncated', field: 48 },
    { name: 'bytes after the last field', bytes: Buffer.concat([good, ascii('X')]), reason: 'trailing-bytes' },
    { name: 'a length prefix that is not digits', bytes: ascii('01004000000000000000A1'), reason: 'bad-length', field: 2 },
    { name: 'a length over the maximum', bytes: ascii(`0100400000000000000020${'4'.repeat(20)}`), reason: 'bad-length', field: 2 },
    { name: 'letters in a numeric field', bytes: ascii('0100002000000000000000012A'), reason: 'bad-content', field: 11 },
  ];
  for (const row of rows) it(row.name, () => expectError(() => decodeMessage(row.bytes, EMULATOR_PROFILE), row.reason, row.field));
  it('binary: a BCD numeric field with a nibble above 9', () => {
    const bytes = Buffer.from('0110' + '0020000000000000' + 'a00123', 'hex');
    expectError(() => decodeMessage(bytes, EMULATOR_BINARY_PROFILE), 'bad-content', 11);
  });
});
