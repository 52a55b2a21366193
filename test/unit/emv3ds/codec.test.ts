import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decode } from '../../../src/connectors/emv3ds/codec.js';
import { isDate } from '../../../src/connectors/emv3ds/formats.js';

describe('EMV 3DS codec: the duplicate-key scan reads JSON as JSON', () => {
  const ROWS: readonly { readonly name: string; readonly text: string; readonly duplicate?: string }[] = [
    { name: 'the same key in two objects is no duplicate', text: '{"a":{"acsTransID":"1"},"b":{"acsTransID":"2"}}' },
    { name: 'a key-like string value is no key', text: '{"acsTransID":"x","note":"\\"acsTransID\\":"}' },
    { name: 'braces and escapes inside strings', text: '{"x":"{[\\\\\\"]}","y":["}",{"z":"]"}]}' },
    { name: 'white space everywhere', text: ' {\n\t"acsTransID" : "1" ,\r\n "dsTransID":[ 1 , true , null ] } ' },
    { name: 'a duplicate in an object inside a list', text: '{"cardRangeData":[{"startRange":"1"},{"startRange":"1","startRange":"2"}]}', duplicate: 'cardRangeData[1].startRange' },
    { name: 'a duplicate after numbers, literals and nesting', text: '{"eci":5,"x":[true,false,null,{"q":[]}],"eci":"05"}', duplicate: 'eci' },
  ];
  for (const { name, text, duplicate } of ROWS) {
    it(name, () => {
      const decoded = decode(text);
      if (duplicate === undefined) {
        assert.ok(decoded.ok);
        assert.deepEqual(decoded.value, JSON.parse(text));
      } else {
        assert.ok(!decoded.ok);
        assert.equal(decoded.error.code, '204');
        assert.equal(decoded.error.detail, duplicate);
      }
    });
  }

  it('nesting of 16 levels is read, 40 refused', () => {
    const nested = (levels: number): string => `{"a":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    assert.ok(decode(nested(15)).ok);
    const deep = decode(nested(40));
    assert.ok(!deep.ok);
    assert.equal(deep.error.code, '101');
  });
});

describe('EMV 3DS formats: dates are real dates', () => {
  const ROWS: readonly [string, Parameters<typeof isDate>[1], boolean][] = [
    ['20261127153000', 'YYYYMMDDHHMMSS', true],
    ['20240229235959', 'YYYYMMDDHHMMSS', true],
    ['20250229000000', 'YYYYMMDDHHMMSS', false],
    ['20261127240000', 'YYYYMMDDHHMMSS', false],
    ['20261127156000', 'YYYYMMDDHHMMSS', false],
    ['202611271530', 'YYYYMMDDHHMM', true],
    ['2026112715300', 'YYYYMMDDHHMM', false],
    ['3012', 'YYMM', true],
    ['3000', 'YYMM', false],
    ['30-1', 'YYMM', false],
  ];
  for (const [text, layout, valid] of ROWS) {
    it(`${text} ${layout}: ${valid ? 'valid' : 'invalid'}`, () => assert.equal(isDate(text, layout), valid));
  }
});
