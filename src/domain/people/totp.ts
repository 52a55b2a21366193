import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * Time-based one-time passwords (RFC 6238) as authenticator apps make them: SHA-1, 6 digits, 30 s.
 * A code of the step before or after now is accepted too (clocks drift), and a step once accepted
 * is never accepted again: a code seen over a shoulder or in a proxy log cannot be replayed.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_WINDOW_STEPS = 1;
export const TOTP_ISSUER = 'Payment gateway console';

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secretBase32: string, label = 'console'): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS });
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, email: string): string {
  return totpOf(secretBase32, email).toString();
}

export function totpCode(secretBase32: string, atMs: number): string {
  return totpOf(secretBase32).generate({ timestamp: atMs });
}

export function totpStepAt(atMs: number): number {
  return Math.floor(atMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** The time-step whose code `code` is, within the window around `nowMs`; undefined: no match. */
export function matchingTotpStep(secretBase32: string, code: string, nowMs: number): number | undefined {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totpOf(secretBase32).validate({ token, timestamp: nowMs, window: TOTP_WINDOW_STEPS });
  return delta === null ? undefined : totpStepAt(nowMs) + delta;
}

export type TotpCheck = { readonly kind: 'accepted'; readonly step: number } | { readonly kind: 'wrong' } | { readonly kind: 'replayed' };

/** Accepts a code once: its step must be later than the last step accepted for this person. */
export function checkTotp(matchedStep: number | undefined, lastStep: number | null): TotpCheck {
  if (matchedStep === undefined) return { kind: 'wrong' };
  if (lastStep !== null && matchedStep <= lastStep) return { kind: 'replayed' };
  return { kind: 'accepted', step: matchedStep };
}

// Recovery codes: 10 characters of an alphabet without look-alikes (50 bits each), shown as xxxxx-xxxxx.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/**
 * How a recovery code is stored. SHA-256 suffices (not argon2): each code holds about 50 random
 * bits and guessing online is bounded by the lock-out, so a stolen table cannot be reversed.
 */
export function recoveryCodeHash(code: string): string {
  const normalised = code.toLowerCase().replace(/[^a-z0-9]/g, '');
  return createHash('sha256').update(`console-recovery:${normalised}`, 'utf8').digest('hex');
}

export function looksLikeRecoveryCode(input: string): boolean {
  return input.toLowerCase().replace(/[^a-z0-9]/g, '').length === 10 && !/^\d+$/.test(input.trim());
}
