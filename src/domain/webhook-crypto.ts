import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Notification encryption as the public interface does it (compatibility.md, "Webhooks"):
 * AES-256-GCM, no additional data, a 12-byte IV and a 16-byte tag, everything in upper-case hex.
 */
const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SECRET_PATTERN = /^[0-9a-fA-F]{64}$/;

export interface EncryptedNotification {
  /** The ciphertext, upper-case hex: the body on the wire. */
  readonly bodyHex: string;
  /** X-Initialization-Vector. */
  readonly ivHex: string;
  /** X-Authentication-Tag. */
  readonly tagHex: string;
}

export function isWebhookSecret(value: string): boolean {
  return SECRET_PATTERN.test(value);
}

/** A new webhook key: 32 random bytes as 64 lower-case hex characters. */
export function generateWebhookSecret(): string {
  return randomBytes(32).toString('hex');
}

function keyOf(secretHex: string): Buffer {
  if (!isWebhookSecret(secretHex)) throw new Error('a webhook secret is 64 hex characters');
  return Buffer.from(secretHex, 'hex');
}

/** A fresh random IV per message: GCM must never see one IV twice under a key. Tests pass one. */
export function encryptNotification(plaintext: string, secretHex: string, iv: Buffer = randomBytes(IV_BYTES)): EncryptedNotification {
  if (iv.length !== IV_BYTES) throw new Error(`the IV is ${IV_BYTES} bytes`);
  const cipher = createCipheriv(CIPHER, keyOf(secretHex), iv, { authTagLength: TAG_BYTES });
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return {
    bodyHex: body.toString('hex').toUpperCase(),
    ivHex: iv.toString('hex').toUpperCase(),
    tagHex: cipher.getAuthTag().toString('hex').toUpperCase(),
  };
}

/** The receiver's side; throws when the tag does not match (wrong key or altered message). */
export function decryptNotification(message: EncryptedNotification, secretHex: string): string {
  const decipher = createDecipheriv(CIPHER, keyOf(secretHex), Buffer.from(message.ivHex, 'hex'), { authTagLength: TAG_BYTES });
  decipher.setAuthTag(Buffer.from(message.tagHex, 'hex'));
  return Buffer.concat([decipher.update(Buffer.from(message.bodyHex, 'hex')), decipher.final()]).toString('utf8');
}
