import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Iso8583Error } from '../../../../src/connectors/iso8583/errors.js';
import { frame, FrameReader } from '../../../../src/connectors/iso8583/framing.js';
import { EMULATOR_BINARY_PROFILE, EMULATOR_PROFILE } from '../../../../src/connectors/iso8583/profile.js';
import { traceIncoming, traceOutgoing } from '../../../../src/connectors/iso8583/trace.js';
import { encodeMessage } from '../../../../src/connectors/iso8583/codec.js';

describe('ISO 8583 framing', () => {
  for (const framing of ['binary2', 'ascii4'] as const) {
    it(`${framing}: messages split and joined at every byte come out whole`, () => {
      const messages = [Buffer.from('first'), Buffer.from('second message'), Buffer.from('3')];
      const stream = Buffer.concat(messages.map((m) => frame(m, framing)));
      for (let cut = 1; cut < stream.length; cut += 1) {
        const reader = new FrameReader(framing);
        const out = [...reader.push(stream.subarray(0, cut)), ...reader.push(stream.subarray(cut))];
        assert.deepEqual(out.map(String), messages.map(String));
        assert.equal(reader.buffered, 0);
      }
    });
  }
  it('binary2 writes a big-endian two-byte length; ascii4 four digits', () => {
    assert.equal(frame(Buffer.from('abc'), 'binary2').toString('hex'), '0003616263');
    assert.equal(frame(Buffer.from('abc'), 'ascii4').toString('latin1'), '0003abc');
  });
  const refusals = [
    { name: 'a length over the reader maximum', framing: 'binary2' as const, bytes: Buffer.from('0401', 'hex'), max: 1000 },
    { name: 'a zero length', framing: 'binary2' as const, bytes: Buffer.from('0000', 'hex'), max: 1000 },
    { name: 'an ascii header that is not digits', framing: 'ascii4' as const, bytes: Buffer.from('00x1'), max: 1000 },
  ];
  for (const row of refusals) {
    it(`refuses ${row.name}`, () => assert.throws(() => new FrameReader(row.framing, row.max).push(row.bytes), Iso8583Error));
  }
  it('refuses to frame a message longer than the header can say', () => {
    assert.throws(() => frame(Buffer.alloc(10_000), 'ascii4'), Iso8583Error);
  });
});

describe('ISO 8583 masked hex trace', () => {
  const PAN = '4111111111111111';
  const message = {
    mti: '0200',
    fields: { 2: PAN, 11: '000001', 14: '3012', 35: `${PAN}=3012`, 45: `B${PAN}^X/Y^3012`, 52: '1122334455667788', 126: '737' },
  };
  for (const profile of [EMULATOR_PROFILE, EMULATOR_BINARY_PROFILE]) {
    it(`masks fields 2, 14, 35, 45, 52 and the profile's CVV2 field (${profile.encoding})`, () => {
      const trace = traceOutgoing(message, profile, profile.maskedFields);
      const hexOf = (text: string) => Buffer.from(text, 'latin1').toString('hex');
      const flat = trace.replace(/^[0-9a-f]{4} {2}/gm, '').replace(/\s+/g, '');
      for (const secret of [hexOf('41111111'), '41111111', hexOf('3012'), '1122334455667788', hexOf('737')]) assert.ok(!flat.includes(secret), `trace shows ${secret}`);
      assert.ok(flat.includes(profile.encoding === 'ascii' ? hexOf('000001') : '000001'), 'unmasked fields stay readable');
      assert.equal(traceIncoming(encodeMessage(message, profile), profile, profile.maskedFields), trace, 'the receiving side masks the same bytes');
    });
  }
  it('does not dump bytes that do not decode', () => {
    assert.equal(traceIncoming(Buffer.from(`0200${PAN}`), EMULATOR_PROFILE), '<20 bytes that do not decode; not shown>');
  });
});
