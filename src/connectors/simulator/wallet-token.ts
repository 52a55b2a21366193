import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import type { WalletName } from '../connector.js';

/**
 * The simulator's stand-in for the wallets' encrypted payment tokens (walletX.paymentToken).
 * Real wallets use their own formats and keys; in test mode every wallet uses this scheme so that
 * merchants and tests can build tokens themselves:
 *
 *   paymentToken = base64( iv (12 bytes) ‖ ciphertext ‖ tag (16 bytes) )
 *   ciphertext   = AES-256-GCM( key of the wallet, iv, JSON payload ), additional data = the
 *                  wallet name in UTF-8 ("walletA"), so a walletA token fails as a walletB token
 *   payload      = {"number":"4200000000000000","expiryMonth":"05","expiryYear":"2034",
 *                   "cryptogram":"…" (optional), "eci":"05" (optional)}
 *
 * The keys are public test keys: SHA-256 of "open-payment-gateway simulator <wallet> test key".
 */
export const WALLET_TEST_KEYS_HEX: Readonly<Record<WalletName, string>> = Object.freeze({
  walletA: 'c8cf8606c2815ca979f6055b261cabcc7cd1a594e8dd0e46deb0386304555ed0',
  walletB: '6c4d5987df35a2d39313a3572e232aed731c0e1f7a79f18e824a8ac3ff5d5256',
  walletC: '96ae513fadc6f3d9570f1d56ab5679a996d1ce30ea6e334927580e0f96cc09a1',
});

export interface WalletTokenPayload {
  readonly number: string;
  readonly expiryMonth: string;
  readonly expiryYear: string;
  readonly cryptogram?: string;
  readonly eci?: string;
}

/** Why a token was refused; deliberately without any of the token's content. */
export type WalletTokenFailure = 'malformed' | 'not-authentic' | 'invalid-payload';

export type WalletTokenResult =
  | { readonly ok: true; readonly card: WalletTokenPayload }
  | { readonly ok: false; readonly reason: WalletTokenFailure };

const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Decrypts and checks a test-mode wallet token. */
export function decryptWalletToken(wallet: WalletName, paymentToken: string): WalletTokenResult {
  if (!BASE64.test(paymentToken)) return { ok: false, reason: 'malformed' };
  const bytes = Buffer.from(paymentToken, 'base64');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return { ok: false, reason: 'malformed' };
  const plaintext = openSealed(wallet, bytes);
  if (plaintext === null) return { ok: false, reason: 'not-authentic' };
  const card = parsePayload(plaintext);
  return card ? { ok: true, card } : { ok: false, reason: 'invalid-payload' };
}

/**
 * Builds a token the simulator accepts. Without an `iv` the IV is derived from the payload, so
 * the same payload always gives the same token (fine for public test keys, wrong for real ones).
 */
export function encryptWalletTokenForTests(wallet: WalletName, payload: WalletTokenPayload, iv?: Uint8Array): string {
  const plaintext = Buffer.from(JSON.stringify(payload), 'utf8');
  const nonce = iv ?? createHash('sha256').update(wallet).update(plaintext).digest().subarray(0, IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(wallet), nonce);
  cipher.setAAD(Buffer.from(wallet, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]).toString('base64');
}

function openSealed(wallet: WalletName, bytes: Buffer): string | null {
  const iv = bytes.subarray(0, IV_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const ciphertext = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(wallet), iv);
    decipher.setAAD(Buffer.from(wallet, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

function parsePayload(plaintext: string): WalletTokenPayload | null {
  let value: unknown;
  try {
    value = JSON.parse(plaintext);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { number, expiryMonth, expiryYear, cryptogram, eci } = value as Record<string, unknown>;
  if (!matches(number, /^[0-9]{8,19}$/) || !matches(expiryMonth, /^(0[1-9]|1[0-2])$/) || !matches(expiryYear, /^(19|20)[0-9]{2}$/)) return null;
  if (cryptogram !== undefined && !matches(cryptogram, /^[A-Za-z0-9+/=]{1,64}$/)) return null;
  if (eci !== undefined && !matches(eci, /^0[1-8]$/)) return null;
  return {
    number,
    expiryMonth,
    expiryYear,
    ...(cryptogram !== undefined ? { cryptogram } : {}),
    ...(eci !== undefined ? { eci } : {}),
  };
}

function matches(value: unknown, pattern: RegExp): value is string {
  return typeof value === 'string' && pattern.test(value);
}

function keyOf(wallet: WalletName): Buffer {
  return Buffer.from(WALLET_TEST_KEYS_HEX[wallet], 'hex');
}
