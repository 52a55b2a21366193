import { Iso8583Error } from './errors.js';
import type { FieldContent, FieldMap, FieldSpec, WireEncoding } from './fields.js';
import type { FieldSpan, IsoMessage } from './message.js';

/** What the codec needs of a profile: its field map and its encoding. */
export interface CodecProfile {
  readonly encoding: WireEncoding;
  readonly fields: FieldMap;
}

const CONTENT_PATTERNS: Record<FieldContent, RegExp> = {
  n: /^[0-9]*$/,
  an: /^[A-Za-z0-9 ]*$/,
  ans: /^[\x20-\x7e]*$/,
  z: /^[0-9=D]*$/,
  b: /^(?:[0-9A-F]{2})*$/,
};
const MTI_PATTERN = /^[0-9]{4}$/;

/** Packs a message: MTI, bitmap(s), then each present field in number order. */
export function encodeMessage(message: IsoMessage, profile: CodecProfile): Buffer {
  return encodeWithSpans(message, profile).bytes;
}

export function encodeWithSpans(message: IsoMessage, profile: CodecProfile): { bytes: Buffer; spans: FieldSpan[] } {
  if (!MTI_PATTERN.test(message.mti)) throw new Iso8583Error('bad-mti');
  const numbers = Object.keys(message.fields).map(Number).sort((a, b) => a - b);
  const parts: Buffer[] = [encodeDigits(message.mti, profile.encoding), encodeBitmap(numbers, profile.encoding)];
  let offset = parts[0]!.length + parts[1]!.length;
  const spans: FieldSpan[] = [];
  for (const number of numbers) {
    const spec = profile.fields.get(number);
    if (!spec) throw new Iso8583Error('unknown-field', number);
    const { prefix, value } = encodeField(spec, normalizeValue(spec, message.fields[number]!), profile.encoding);
    spans.push({ field: number, start: offset + prefix.length, end: offset + prefix.length + value.length });
    parts.push(prefix, value);
    offset += prefix.length + value.length;
  }
  return { bytes: Buffer.concat(parts), spans };
}

/** Reads one whole message (no framing); every byte must belong to it. */
export function decodeMessage(bytes: Buffer, profile: CodecProfile): IsoMessage {
  return decodeWithSpans(bytes, profile).message;
}

export function decodeWithSpans(bytes: Buffer, profile: CodecProfile): { message: IsoMessage; spans: FieldSpan[] } {
  const cursor = { bytes, at: 0 };
  const mti = readDigits(cursor, 4, profile.encoding, undefined);
  if (!MTI_PATTERN.test(mti)) throw new Iso8583Error('bad-mti');
  const numbers = readBitmap(cursor, profile.encoding);
  const fields: Record<number, string> = {};
  const spans: FieldSpan[] = [];
  for (const number of numbers) {
    const spec = profile.fields.get(number);
    if (!spec) throw new Iso8583Error('unknown-field', number);
    const length = readLength(cursor, spec, profile.encoding);
    const start = cursor.at;
    fields[number] = readValue(cursor, spec, length, profile.encoding);
    spans.push({ field: number, start, end: cursor.at });
  }
  if (cursor.at !== bytes.length) throw new Iso8583Error('trailing-bytes');
  return { message: { mti, fields }, spans };
}

function normalizeValue(spec: FieldSpec, value: string): string {
  const text = spec.content === 'b' ? value.toUpperCase() : value;
  if (!CONTENT_PATTERNS[spec.content].test(text)) throw new Iso8583Error('bad-content', spec.number);
  const length = spec.content === 'b' ? text.length / 2 : text.length;
  if (spec.lengthType === 'fixed' ? length !== spec.length : length > spec.length) throw new Iso8583Error('bad-length', spec.number);
  return text;
}

function encodeField(spec: FieldSpec, value: string, encoding: WireEncoding): { prefix: Buffer; value: Buffer } {
  const length = spec.content === 'b' ? value.length / 2 : value.length;
  const prefixDigits = spec.lengthType === 'llvar' ? 2 : spec.lengthType === 'lllvar' ? 3 : 0;
  const prefix = prefixDigits === 0 ? Buffer.alloc(0) : encodeDigits(String(length).padStart(prefixDigits, '0'), encoding);
  return { prefix, value: encodeValue(spec.content, value, encoding) };
}

function encodeValue(content: FieldContent, value: string, encoding: WireEncoding): Buffer {
  if (content === 'b') return encoding === 'binary' ? Buffer.from(value, 'hex') : Buffer.from(value, 'ascii');
  if (encoding === 'binary' && content === 'n') return encodeDigits(value, encoding);
  // Track 2 packs as BCD with the separator as D and an odd length padded with F at the end.
  if (encoding === 'binary' && content === 'z') return Buffer.from(value.replace(/=/g, 'D').padEnd(Math.ceil(value.length / 2) * 2, 'F'), 'hex');
  return Buffer.from(value, 'ascii');
}

/** Digits as ASCII, or as BCD padded with a leading 0 to whole bytes. */
function encodeDigits(digits: string, encoding: WireEncoding): Buffer {
  if (encoding === 'ascii') return Buffer.from(digits, 'ascii');
  return Buffer.from(digits.length % 2 === 0 ? digits : `0${digits}`, 'hex');
}

function encodeBitmap(numbers: readonly number[], encoding: WireEncoding): Buffer {
  const secondary = numbers.some((n) => n > 64);
  const bitmap = Buffer.alloc(secondary ? 16 : 8);
  const set = (n: number): void => {
    bitmap[(n - 1) >> 3]! |= 0x80 >> ((n - 1) & 7);
  };
  if (secondary) set(1);
  for (const n of numbers) set(n);
  return encoding === 'binary' ? bitmap : Buffer.from(bitmap.toString('hex').toUpperCase(), 'ascii');
}

interface Cursor {
  readonly bytes: Buffer;
  at: number;
}

function take(cursor: Cursor, count: number, field: number | undefined): Buffer {
  if (cursor.at + count > cursor.bytes.length) throw new Iso8583Error('truncated', field);
  const slice = cursor.bytes.subarray(cursor.at, cursor.at + count);
  cursor.at += count;
  return slice;
}

function readDigits(cursor: Cursor, count: number, encoding: WireEncoding, field: number | undefined): string {
  if (encoding === 'ascii') return take(cursor, count, field).toString('latin1');
  const hex = take(cursor, Math.ceil(count / 2), field).toString('hex');
  return count % 2 === 0 ? hex : hex.slice(1);
}

function readBitmap(cursor: Cursor, encoding: WireEncoding): number[] {
  const readHalf = (): Buffer => {
    if (encoding === 'binary') return take(cursor, 8, undefined);
    const hex = take(cursor, 16, undefined).toString('latin1');
    if (!/^[0-9A-Fa-f]{16}$/.test(hex)) throw new Iso8583Error('bad-bitmap');
    return Buffer.from(hex, 'hex');
  };
  const primary = readHalf();
  const bitmap = primary[0]! & 0x80 ? Buffer.concat([primary, readHalf()]) : primary;
  const numbers: number[] = [];
  for (let n = 2; n <= bitmap.length * 8; n += 1) if (bitmap[(n - 1) >> 3]! & (0x80 >> ((n - 1) & 7))) numbers.push(n);
  // Bit 65 would announce a third bitmap, which no profile uses.
  if (numbers.includes(65) || numbers.length === 0) throw new Iso8583Error('bad-bitmap');
  return numbers;
}

function readLength(cursor: Cursor, spec: FieldSpec, encoding: WireEncoding): number {
  if (spec.lengthType === 'fixed') return spec.length;
  const digits = readDigits(cursor, spec.lengthType === 'llvar' ? 2 : 3, encoding, spec.number);
  if (!/^[0-9]+$/.test(digits)) throw new Iso8583Error('bad-length', spec.number);
  const length = Number(digits);
  if (length > spec.length) throw new Iso8583Error('bad-length', spec.number);
  return length;
}

function readValue(cursor: Cursor, spec: FieldSpec, length: number, encoding: WireEncoding): string {
  const value = readRaw(cursor, spec, length, encoding);
  const text = spec.content === 'b' ? value.toUpperCase() : value;
  if (!CONTENT_PATTERNS[spec.content].test(text)) throw new Iso8583Error('bad-content', spec.number);
  return text;
}

function readRaw(cursor: Cursor, spec: FieldSpec, length: number, encoding: WireEncoding): string {
  if (spec.content === 'b') return encoding === 'binary' ? take(cursor, length, spec.number).toString('hex') : take(cursor, length * 2, spec.number).toString('latin1');
  if (encoding === 'binary' && spec.content === 'n') return readDigits(cursor, length, encoding, spec.number);
  if (encoding === 'binary' && spec.content === 'z') {
    return take(cursor, Math.ceil(length / 2), spec.number).toString('hex').toUpperCase().slice(0, length).replace(/D/g, '=');
  }
  return take(cursor, length, spec.number).toString('latin1');
}
