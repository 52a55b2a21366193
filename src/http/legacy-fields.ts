import { accessTokenOf, LEGACY_PASSWORD_LENGTH_MAX, LEGACY_USER_ID_PATTERN } from '../domain/access-token-form.js';

/** OPPWA's authentication fields: form fields on POST, query parameters on GET and DELETE. */
export const LEGACY_USER_ID = 'authentication.userId';
export const LEGACY_PASSWORD = 'authentication.password';
export const LEGACY_ENTITY_ID = 'authentication.entityId';
const LEGACY_PREFIX = 'authentication.';

/**
 * What a request's legacy credential fields amount to:
 * - absent: neither userId nor password (authentication.entityId alone is no credential);
 * - incomplete: one without the other, an empty one or one sent twice, answered like a missing header;
 * - unknown: well-formed fields that cannot name a credential (userId not 32 hex, password too long);
 * - credential: the token they form, looked up like a Bearer token.
 */
export type LegacyFields =
  | { readonly kind: 'absent' }
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'credential'; readonly token: string };

type Source = Readonly<Record<string, unknown>> | undefined | null;

function single(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function legacyFieldsOf(source: Source): LegacyFields {
  const userId = source?.[LEGACY_USER_ID];
  const password = source?.[LEGACY_PASSWORD];
  if (userId === undefined && password === undefined) return { kind: 'absent' };
  const user = single(userId);
  const secret = single(password);
  if (user === undefined || secret === undefined) return { kind: 'incomplete' };
  if (!LEGACY_USER_ID_PATTERN.test(user) || secret.length > LEGACY_PASSWORD_LENGTH_MAX) return { kind: 'unknown' };
  return { kind: 'credential', token: accessTokenOf(user, secret) };
}

/** The value of a field as sent: a string, several (sent twice) or nothing. */
export function fieldValue(source: Source, name: string): string | string[] | undefined {
  const value = source?.[name];
  return typeof value === 'string' || Array.isArray(value) ? (value as string | string[]) : undefined;
}

/**
 * Once authenticated, the authentication.* fields leave the request: they are no parameters of
 * the payment, so they are never validated, echoed, stored or fingerprinted, and the password
 * reaches nothing past this point. authentication.entityId becomes entityId where that is absent
 * (the two agree when both are sent; authentication checked that).
 */
export function removeLegacyFields(source: Record<string, unknown> | undefined | null, entityId: string): void {
  if (!source) return;
  const named = LEGACY_ENTITY_ID in source;
  for (const name of Object.keys(source)) if (name.startsWith(LEGACY_PREFIX)) delete source[name];
  if (named && source['entityId'] === undefined) source['entityId'] = entityId;
}
