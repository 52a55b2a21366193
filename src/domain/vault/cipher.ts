import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM sealing, the one cipher of the vault. A sealed value is self-describing:
 * format byte, 96-bit random IV, 128-bit tag, ciphertext. The associated data binds a value to
 * where it is stored (a registration id, a data key id), so a ciphertext copied into another
 * row fails to open instead of decrypting under the wrong name.
 */
const FORMAT_V1 = 0x01;
export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;

/** A sealed value was altered, truncated, moved to another record, or sealed under another key. */
export class VaultIntegrityError extends Error {
  constructor(message = 'sealed value failed its integrity check') {
    super(message);
    this.name = 'VaultIntegrityError';
  }
}

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`vault keys are ${KEY_BYTES} bytes`);
}

export function sealBytes(key: Buffer, plaintext: Buffer, associatedData: string): Buffer {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.of(FORMAT_V1), iv, cipher.getAuthTag(), body]);
}

export function openBytes(key: Buffer, sealed: Uint8Array, associatedData: string): Buffer {
  assertKey(key);
  const value = Buffer.from(sealed);
  if (value.length < HEADER_BYTES || value[0] !== FORMAT_V1) throw new VaultIntegrityError('not a sealed value of a known format');
  const iv = value.subarray(1, 1 + IV_BYTES);
  const tag = value.subarray(1 + IV_BYTES, HEADER_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(value.subarray(HEADER_BYTES)), decipher.final()]);
  } catch {
    throw new VaultIntegrityError();
  }
}

export function newRandomKey(): Buffer {
  return randomBytes(KEY_BYTES);
}
