import { protocolError, type ProtocolError } from './errors.js';
import type { MessageType } from './fields.js';
import { isJsonObject, type JsonObject } from './formats.js';
import { KNOWN_FIELD_NAMES } from './messages.js';
import type { Emv3dsMessage } from './types.js';
import { validate, type ValidateOptions, type Validation } from './validate.js';

/**
 * EMV 3-D Secure messages as JSON text. The spec forbids a data element twice in a message; the
 * JSON parser keeps the last silently, so the raw text is scanned for duplicate keys (at every
 * depth) before anything is believed. No error quotes the text: a message may hold a PAN, and
 * the platform's JSON.parse errors quote what they could not read, so they are never passed on.
 */

/** Deeper nesting than any message has is refused rather than followed (the scan is recursive). */
const MAX_DEPTH = 16;

export type Decoded = { readonly ok: true; readonly value: JsonObject } | { readonly ok: false; readonly error: ProtocolError };

/** JSON text → a plain object, or 101 (not JSON, not an object, too deep) or 204 (duplicate data element). */
export function decode(text: string): Decoded {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: protocolError('101', 'message is not valid JSON') };
  }
  if (!isJsonObject(value)) return { ok: false, error: protocolError('101', 'message is not a JSON object') };
  const scan = scanKeys(text);
  if (scan === 'too-deep') return { ok: false, error: protocolError('101', 'message is nested too deeply', value) };
  if (scan.length > 0) return { ok: false, error: protocolError('204', scan.map(nameable).join(','), value) };
  return { ok: true, value };
}

/** decode, then validate: what a receiver does with the body of a request or an answer. */
export function readMessage<T extends MessageType = MessageType>(text: string, expectedType?: T, options?: ValidateOptions): Validation<T> {
  const decoded = decode(text);
  if (!decoded.ok) return decoded;
  return validate(decoded.value, expectedType, options);
}

/**
 * A duplicate's path as the error may name it: the keys of the text are the sender's, and only
 * the names of the spec's data elements are repeated (an extension's key could be anything).
 */
function nameable(path: string): string {
  const keys = path.split(/\.|\[\d+\]/).filter((key) => key !== '');
  return keys.every((key) => KNOWN_FIELD_NAMES.has(key)) ? path : 'an extension data element';
}

/** A message → its JSON text, members in the message's order; decode(encode(m)) gives m back. */
export function encode(message: Emv3dsMessage): string {
  return JSON.stringify(message);
}

/**
 * The paths of keys that occur twice in one object (e.g. "acsTransID", "cardRangeData[1].endRange").
 * Runs on text JSON.parse accepted, so it only needs to tell keys, strings and nesting apart.
 */
function scanKeys(text: string): string[] | 'too-deep' {
  const duplicates: string[] = [];
  let at = 0;
  const skipSpace = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  };
  const readString = (): string => {
    const start = at++;
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const readValue = (path: string, depth: number): boolean => {
    if (depth > MAX_DEPTH) return false;
    skipSpace();
    const char = text[at];
    if (char === '"') {
      readString();
      return true;
    }
    if (char === '{' || char === '[') return readContainer(char === '{', path, depth);
    while (at < text.length && !',]} \t\n\r'.includes(text[at]!)) at++;
    return true;
  };
  const readContainer = (isObject: boolean, path: string, depth: number): boolean => {
    const close = isObject ? '}' : ']';
    const seen = new Set<string>();
    at++;
    skipSpace();
    for (let index = 0; text[at] !== close; index++) {
      let member = `${path}[${index}]`;
      if (isObject) {
        const key = readString();
        member = path === '' ? key : `${path}.${key}`;
        if (seen.has(key)) duplicates.push(member);
        seen.add(key);
        skipSpace();
        at++; // the colon
      }
      if (!readValue(member, depth + 1)) return false;
      skipSpace();
      if (text[at] === ',') at++;
      skipSpace();
    }
    at++;
    return true;
  };
  return readValue('', 0) ? duplicates : 'too-deep';
}
