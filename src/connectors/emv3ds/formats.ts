/**
 * The formats of EMV 3-D Secure data elements, as data, and the one check that reads them.
 * A field definition (fields.ts, the message tables) names a format; validate.ts walks a message
 * with it. Checks return the paths of what is wrong, never the values (they may be card data).
 */

/** When a rule applies: a test on the values of sibling fields of the same JSON object. */
export type Condition =
  | { readonly field: string; readonly in: readonly (string | boolean)[] }
  | { readonly field: string; readonly absent: true }
  | { readonly field: string; readonly present: true }
  | { readonly all: readonly Condition[] };

/** R: required; O: optional; a condition: required when it holds, optional otherwise. */
export type Presence = 'R' | 'O' | { readonly requiredWhen: Condition };

export interface FieldRule {
  readonly field: string;
  readonly presence: Presence;
  readonly format: FieldFormat;
}

export type DateLayout = 'YYYYMMDDHHMMSS' | 'YYYYMMDDHHMM' | 'YYYYMMDD' | 'YYMM';

export type FieldFormat =
  /** Printable text of min..max characters (the spec's "String"). */
  | { readonly kind: 'string'; readonly min: number; readonly max: number }
  /** Only the digits 0-9, min..max of them; minValue: the number they write is at least this. */
  | { readonly kind: 'numeric'; readonly min: number; readonly max: number; readonly minValue?: number }
  /** One of the listed values; dsRange: also 80-99, the values the spec reserves for DS use. */
  | { readonly kind: 'enum'; readonly values: readonly string[]; readonly dsRange?: boolean }
  /** RFC 4122 canonical text, 36 characters. The spec allows any variant; we do not insist on v4. */
  | { readonly kind: 'uuid' }
  | { readonly kind: 'date'; readonly layout: DateLayout }
  /** A fully qualified http(s) URL of at most max characters. */
  | { readonly kind: 'url'; readonly max: number }
  /** Base64 (standard or URL alphabet) of exactly `length` characters: authenticationValue. */
  | { readonly kind: 'base64'; readonly length: number }
  /** Protocol version text, e.g. 2.2.0. */
  | { readonly kind: 'version' }
  | { readonly kind: 'boolean' }
  /** A JSON object whose members follow the rules; members not listed are tolerated. */
  | { readonly kind: 'object'; readonly rules: readonly FieldRule[] }
  /** A JSON object of any members (e.g. a JWK). */
  | { readonly kind: 'anyObject' }
  | { readonly kind: 'array'; readonly of: FieldFormat; readonly min: number; readonly max: number }
  /** Either of two formats: a version that changed a field's shape and where we accept both. */
  | { readonly kind: 'either'; readonly formats: readonly [FieldFormat, FieldFormat] };

/** What is wrong inside a value: paths of missing required members and of malformed values. */
export interface Findings {
  readonly missing: string[];
  readonly invalid: string[];
}

export type JsonObject = { readonly [key: string]: unknown };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The spec's strings are printable; control characters are refused.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const BASE64 = /^[A-Za-z0-9+/\-_]+={0,2}$/;
const VERSION = /^\d{1,2}\.\d{1,2}\.\d{1,2}$/;
const DIGITS = /^\d+$/;

export function holds(condition: Condition, object: JsonObject): boolean {
  if ('all' in condition) return condition.all.every((part) => holds(part, object));
  const value = object[condition.field];
  if ('absent' in condition) return value === undefined;
  if ('present' in condition) return value !== undefined;
  return condition.in.some((expected) => expected === value);
}

export function isRequired(presence: Presence, object: JsonObject): boolean {
  if (presence === 'R') return true;
  if (presence === 'O') return false;
  return holds(presence.requiredWhen, object);
}

/** Checks the members of an object against rules; `prefix` makes nested paths (cardRangeData[0].startRange). */
export function checkObject(object: JsonObject, rules: readonly FieldRule[], prefix = ''): Findings {
  const findings: Findings = { missing: [], invalid: [] };
  for (const rule of rules) {
    const value = object[rule.field];
    const path = `${prefix}${rule.field}`;
    if (value === undefined) {
      if (isRequired(rule.presence, object)) findings.missing.push(path);
      continue;
    }
    const inner = checkValue(value, rule.format, path);
    findings.missing.push(...inner.missing);
    findings.invalid.push(...inner.invalid);
  }
  return findings;
}

function checkValue(value: unknown, format: FieldFormat, path: string): Findings {
  if (format.kind === 'object') {
    if (!isJsonObject(value)) return { missing: [], invalid: [path] };
    return checkObject(value, format.rules, `${path}.`);
  }
  if (format.kind === 'array') return checkArray(value, format, path);
  if (format.kind === 'either') {
    const [first, second] = format.formats.map((one) => checkValue(value, one, path));
    return isClean(first!) ? first! : isClean(second!) ? second! : first!;
  }
  return isWellFormed(value, format) ? { missing: [], invalid: [] } : { missing: [], invalid: [path] };
}

function checkArray(value: unknown, format: Extract<FieldFormat, { kind: 'array' }>, path: string): Findings {
  if (!Array.isArray(value) || value.length < format.min || value.length > format.max) return { missing: [], invalid: [path] };
  const findings: Findings = { missing: [], invalid: [] };
  value.forEach((item, index) => {
    const inner = checkValue(item, format.of, `${path}[${index}]`);
    findings.missing.push(...inner.missing);
    findings.invalid.push(...inner.invalid);
  });
  return findings;
}

function isClean(findings: Findings): boolean {
  return findings.missing.length === 0 && findings.invalid.length === 0;
}

type ScalarFormat = Exclude<FieldFormat, { kind: 'object' | 'array' | 'either' }>;

function isWellFormed(value: unknown, format: ScalarFormat): boolean {
  if (format.kind === 'boolean') return typeof value === 'boolean';
  if (format.kind === 'anyObject') return isJsonObject(value);
  if (typeof value !== 'string') return false;
  switch (format.kind) {
    case 'string': return value.length >= format.min && value.length <= format.max && !CONTROL.test(value);
    case 'numeric': return value.length >= format.min && value.length <= format.max && DIGITS.test(value) && (format.minValue === undefined || Number(value) >= format.minValue);
    case 'enum': return format.values.includes(value) || (format.dsRange === true && /^(8\d|9\d)$/.test(value));
    case 'uuid': return UUID.test(value);
    case 'date': return isDate(value, format.layout);
    case 'url': return value.length <= format.max && isHttpUrl(value);
    case 'base64': return value.length === format.length && BASE64.test(value);
    case 'version': return VERSION.test(value);
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** A real calendar date and time in the layout (20260230 is refused), read as UTC. */
export function isDate(text: string, layout: DateLayout): boolean {
  if (text.length !== layout.length || !DIGITS.test(text)) return false;
  if (layout === 'YYMM') {
    const month = Number(text.slice(2, 4));
    return month >= 1 && month <= 12;
  }
  const [year, month, day] = [Number(text.slice(0, 4)), Number(text.slice(4, 6)), Number(text.slice(6, 8))];
  const [hour, minute, second] = [Number(text.slice(8, 10) || '0'), Number(text.slice(10, 12) || '0'), Number(text.slice(12, 14) || '0')];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    && date.getUTCHours() === hour && date.getUTCMinutes() === minute && date.getUTCSeconds() === second;
}
