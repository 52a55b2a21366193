import { createHash } from 'node:crypto';
import { maskCardNumber } from './card.js';
import { looksSecret } from './redact.js';

// Secrets never enter the fingerprint in clear, not even hashed without a key: an unkeyed hash
// of a card number can be reversed by trying every number of a BIN range.
function fingerprintValue(name: string, value: string): string {
  return looksSecret(name) ? `${maskCardNumber(value)}#${value.length}` : value;
}

/**
 * What makes two requests "the same" for Idempotency-Key: method, path and every body field, in
 * a canonical order. Secret values count by their masked form (BIN, last four, length).
 */
export function requestFingerprint(method: string, path: string, body: Readonly<Record<string, unknown>>): string {
  const hash = createHash('sha256').update(`${method} ${path}\n`);
  for (const name of Object.keys(body).sort()) {
    const raw = body[name];
    const values = Array.isArray(raw) ? raw.map(String) : [String(raw)];
    for (const value of values) hash.update(`${JSON.stringify(name)}=${JSON.stringify(fingerprintValue(name, value))}\n`);
  }
  return hash.digest('hex');
}
