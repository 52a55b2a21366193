import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

// @node-rs/argon2's Algorithm.Argon2id (a const enum, which isolated modules cannot import).
const ARGON2ID = 2;

/**
 * argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's recommended minimum),
 * about 10-20 ms here. The parameters are stored in the hash, so raising them later only affects
 * new hashes.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when the e-mail address is unknown, so that an answer takes as long either way.
let decoyHash: Promise<string> | undefined;
export async function verifyDecoy(password: string): Promise<void> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await decoyHash, password);
}

/** A password made for someone (the command line's first operator, a new person): 20 characters, 120 bits. */
export function newOneTimePassword(): string {
  return randomBytes(15).toString('base64url');
}
