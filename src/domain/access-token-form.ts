import { ENTITY_ID_PATTERN, type IdGenerator } from './ids.js';

/**
 * OPPWA's credential: an access token is the base64 of `userId|password`, so one credential is
 * both a Bearer token and the `authentication.userId` / `authentication.password` fields. The
 * gateway's userId is the token's id (32 hex), which is not secret; the password is.
 */
export const LEGACY_USER_ID_PATTERN = ENTITY_ID_PATTERN;

/** Longer passwords name no credential this gateway issued (its own are 32 characters). */
export const LEGACY_PASSWORD_LENGTH_MAX = 256;

/** The token a userId and password form: what the client would send as `Bearer <token>`. */
export function accessTokenOf(userId: string, password: string): string {
  return Buffer.from(`${userId}|${password}`, 'utf8').toString('base64');
}

export interface LegacyCredential {
  readonly userId: string;
  readonly password: string;
}

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The userId and password inside a token of the legacy form, or undefined for any other token
 * (the 256-bit random tokens issued before, which therefore cannot be sent as fields).
 */
export function legacyCredentialOf(token: string): LegacyCredential | undefined {
  if (!STANDARD_BASE64.test(token)) return undefined;
  const text = Buffer.from(token, 'base64').toString('utf8');
  const bar = text.indexOf('|');
  const userId = text.slice(0, bar);
  const password = text.slice(bar + 1);
  if (bar < 0 || !LEGACY_USER_ID_PATTERN.test(userId) || password === '') return undefined;
  // A token that is not exactly what the fields would form (bad UTF-8, odd padding) is not one.
  return accessTokenOf(userId, password) === token ? { userId, password } : undefined;
}

/** A new credential: its id is the userId, so the token names the row it is stored in. */
export function newAccessToken(ids: IdGenerator): { readonly tokenId: string; readonly accessToken: string } {
  const tokenId = ids.id();
  return { tokenId, accessToken: accessTokenOf(tokenId, ids.tokenPassword()) };
}
