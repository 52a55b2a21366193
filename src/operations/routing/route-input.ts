import { GatewayError } from '../../results/gateway-error.js';

/** Shown values are cut; a credential's value is never shown. */
const SHOWN = 64;
const BRAND = /^[A-Z0-9_]{1,32}$/;
const CURRENCY = /^[A-Z]{3}$/;
const CREDENTIAL_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const CREDENTIAL_VALUE_MAX = 4096;
const CREDENTIALS_MAX = 32;
// Control characters have no place in a credential and would only reach a log by mistake.
const CONTROL = /[\u0000-\u001f\u007f]/;

export function invalidRouteParameter(name: string, value: string, message: string): GatewayError {
  return new GatewayError('200.300.404', { parameterErrors: [{ name, value: value.slice(0, SHOWN), message }] });
}

export function checkBrand(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!BRAND.test(value)) throw invalidRouteParameter('brand', value, 'must be a payment brand: 1 to 32 of A-Z, 0-9, _');
  return value;
}

export function checkCurrency(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!CURRENCY.test(value)) throw invalidRouteParameter('currency', value, 'must be an ISO 4217 code of three upper-case letters');
  return value;
}

/** Credentials that may hold PEM text (a 3DS server route's certificates): longer, and with line breaks. */
export interface PemCredentials {
  readonly names: ReadonlySet<string>;
  readonly maxLength: number;
}

const LINE_BREAKS = /[\r\n\t]/g;

/** Credentials as name → value; names are shown back, values never. */
export function checkCredentials(credentials: Readonly<Record<string, unknown>>, pem?: PemCredentials): Record<string, string> {
  const entries = Object.entries(credentials);
  if (entries.length > CREDENTIALS_MAX) throw invalidRouteParameter('credentials', '', `at most ${CREDENTIALS_MAX} credentials`);
  const checked: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!CREDENTIAL_NAME.test(name)) throw invalidRouteParameter(`credentials[${name.slice(0, SHOWN)}]`, '', 'name must be a letter then up to 63 of A-Z a-z 0-9 _ . -');
    const isPem = pem?.names.has(name) === true;
    const max = isPem ? pem!.maxLength : CREDENTIAL_VALUE_MAX;
    if (typeof value !== 'string' || value.length === 0 || value.length > max || CONTROL.test(isPem ? value.replace(LINE_BREAKS, '') : value)) {
      throw invalidRouteParameter(`credentials[${name}]`, '', `must be 1 to ${max} characters without control characters${isPem ? ' (line breaks allowed)' : ''}`);
    }
    checked[name] = value;
  }
  return checked;
}
