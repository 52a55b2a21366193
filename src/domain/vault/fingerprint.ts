import { createHmac } from 'node:crypto';

/** What an account number identifies; part of the HMAC input so a card and an IBAN never collide. */
export type FingerprintKind = 'card' | 'iban' | 'bankAccountNumber' | 'tokenAccount' | 'virtualAccount';

/** Spaces, dashes and letter case do not make another account. */
export function normalizeAccountNumber(value: string): string {
  return value.replace(/[\s-]/g, '').toUpperCase();
}

/**
 * A keyed HMAC-SHA256 of an account number: equal for equal accounts, so the gateway can find
 * every registration of a card without decrypting anything, and worthless without the key (a
 * plain hash of a PAN is reversible by trying the few billion numbers of a BIN range).
 */
export function accountFingerprint(lookupKey: Buffer, kind: FingerprintKind, value: string): string {
  return createHmac('sha256', lookupKey).update(`${kind}:${normalizeAccountNumber(value)}`).digest('hex');
}
