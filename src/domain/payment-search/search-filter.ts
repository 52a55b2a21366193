import ipaddr from 'ipaddr.js';
import { containsCardNumber } from '../card-numbers-in-text.js';
import { ENTITY_ID_PATTERN } from '../ids.js';
import { MINOR_UNITS_PER_UNIT } from '../money.js';
import type { OutcomeGroup } from '../outcome-group.js';
import { SHORT_ID_PATTERN } from '../short-id.js';
import type { PaymentType, TransactionStatus } from '../transaction.js';

/**
 * The console's payment search form, parsed: what a person typed becomes a typed filter or a
 * message per field. Pure; the form's field names are the keys of SearchForm (docs/console.md,
 * "Payments").
 */
export interface PaymentFilter {
  readonly id?: string;
  readonly merchantTransactionId?: string;
  readonly shortId?: string;
  readonly bin?: string;
  readonly last4?: string;
  /** As typed (trimmed); the database folds case and spaces (payment_search_text) on both sides. */
  readonly holder?: string;
  readonly email?: string;
  readonly ip?: string;
  readonly amountFromMinor?: bigint;
  readonly amountToMinor?: bigint;
  readonly currency?: string;
  readonly brand?: string;
  readonly paymentType?: PaymentType;
  readonly resultCode?: string;
  readonly resultGroup?: OutcomeGroup;
  readonly status?: TransactionStatus;
  readonly channel?: string;
  readonly connector?: string;
  /** Inclusive, the start of the day (UTC). */
  readonly createdFrom?: Date;
  /** Exclusive: the day after the last day asked for (UTC). */
  readonly createdBefore?: Date;
}

export type SortKey = 'created' | 'amount';
export type SortOrder = 'desc' | 'asc';

export interface PaymentSearch {
  readonly filter: PaymentFilter;
  readonly sort: SortKey;
  readonly order: SortOrder;
}

export const SEARCH_FIELDS = [
  'id', 'merchantTransactionId', 'shortId', 'bin', 'last4', 'holder', 'email', 'ip', 'amountFrom', 'amountTo', 'currency',
  'brand', 'paymentType', 'result', 'status', 'channel', 'connector', 'from', 'to', 'sort', 'order',
] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];
/** The form as submitted (a query string): every field optional, text as typed. */
export type SearchForm = Partial<Record<SearchField, string>>;

export interface FieldError {
  readonly field: SearchField;
  readonly message: string;
}

export type ParsedSearch =
  | { readonly ok: true; readonly search: PaymentSearch; readonly form: SearchForm }
  | { readonly ok: false; readonly errors: readonly FieldError[]; readonly form: SearchForm };

export const PAYMENT_TYPES: readonly PaymentType[] = ['PA', 'DB', 'CD', 'CP', 'RV', 'RF', 'CB', 'CR'];
export const STATUSES: readonly TransactionStatus[] = ['success', 'pending', 'rejected'];
export const RESULT_GROUPS: readonly OutcomeGroup[] = ['success', 'pending', 'declined', 'validation', 'risk', 'three_d_secure', 'error'];

type Parsed<T> = { value: T } | { error: string };
type FieldParser = (text: string) => Parsed<Partial<PaymentFilter>>;

const matching = (pattern: RegExp, message: string, to: (text: string) => Partial<PaymentFilter>): FieldParser =>
  (text) => (pattern.test(text) ? { value: to(text) } : { error: message });
const ofLength = (max: number, to: (text: string) => Partial<PaymentFilter>): FieldParser =>
  (text) => (text.length <= max ? { value: to(text) } : { error: `at most ${max} characters` });
const oneOf = <T extends string>(allowed: readonly T[], to: (value: T) => Partial<PaymentFilter>, fold = (t: string) => t): FieldParser =>
  (text) => (allowed.includes(fold(text) as T) ? { value: to(fold(text) as T) } : { error: `one of ${allowed.join(', ')}` });


/**
 * An amount as a person types it, in major units ("12", "12.5", "1234.56", "12,50" with a
 * decimal comma), to minor units exactly (BigInt, never a float). The gateway keeps hundredths
 * whatever the currency (domain/money.ts), so the conversion does not depend on it.
 */
export function parseTypedAmount(text: string): Parsed<bigint> {
  const match = /^(\d{1,13})(?:[.,](\d{1,2}))?$/.exec(text.replace(/\s/g, ''));
  if (!match) return { error: 'an amount like 12.50 (at most two decimals)' };
  const hundredths = BigInt((match[2] ?? '').padEnd(2, '0'));
  return { value: BigInt(match[1]!) * MINOR_UNITS_PER_UNIT + hundredths };
}

/** A calendar day (YYYY-MM-DD, as a date field sends it), UTC midnight; days after: the next. */
export function parseDay(text: string, daysAfter = 0): Parsed<Date> {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const day = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
  if (!day || day.toISOString().slice(0, 10) !== text) return { error: 'a date like 2026-11-27' };
  return { value: new Date(day.getTime() + daysAfter * 86_400_000) };
}

// Fields whose form admits a card number's digits; the others' patterns do not (an id's hex digits
// can hold a Luhn-valid run: it is still an id).
const FREE_TEXT_FIELDS: ReadonlySet<SearchField> = new Set(['merchantTransactionId', 'holder', 'email', 'brand', 'connector']);

const RESULT_CODE = /^\d{3}\.\d{3}\.\d{3}$/;

const PARSERS: Readonly<Record<Exclude<SearchField, 'amountFrom' | 'amountTo' | 'from' | 'to' | 'sort' | 'order'>, FieldParser>> = {
  id: matching(ENTITY_ID_PATTERN, 'a payment id: 32 characters 0-9 and a-f', (id) => ({ id })),
  merchantTransactionId: ofLength(255, (merchantTransactionId) => ({ merchantTransactionId })),
  shortId: matching(SHORT_ID_PATTERN, 'a short id like 1234.5678.9012', (shortId) => ({ shortId })),
  bin: matching(/^\d{6}(\d{2})?$/, 'the first 6 or 8 digits of the card', (bin) => ({ bin })),
  last4: matching(/^\d{4}$/, 'the last 4 digits of the card', (last4) => ({ last4 })),
  holder: ofLength(128, (holder) => ({ holder })),
  email: (text) => (/^[^\s@]+@[^\s@]+$/.test(text) && text.length <= 254 ? { value: { email: text } } : { error: 'an e-mail address like name@example.com' }),
  ip: (text) => (ipaddr.isValid(text) ? { value: { ip: text.toLowerCase() } } : { error: 'an IPv4 or IPv6 address' }),
  currency: matching(/^[A-Za-z]{3}$/, 'a currency code like EUR', (currency) => ({ currency: currency.toUpperCase() })),
  brand: matching(/^[A-Za-z0-9_]{2,32}$/, 'a payment brand like VISA', (brand) => ({ brand: brand.toUpperCase() })),
  paymentType: oneOf(PAYMENT_TYPES, (paymentType) => ({ paymentType }), (t) => t.toUpperCase()),
  result: (text) => {
    if (RESULT_CODE.test(text)) return { value: { resultCode: text } };
    const group = RESULT_GROUPS.find((g) => g === text.toLowerCase());
    return group ? { value: { resultGroup: group } } : { error: `a result code like 000.100.110 or a group: ${RESULT_GROUPS.join(', ')}` };
  },
  status: oneOf(STATUSES, (status) => ({ status }), (t) => t.toLowerCase()),
  channel: matching(ENTITY_ID_PATTERN, 'a channel id: 32 characters 0-9 and a-f', (channel) => ({ channel })),
  connector: matching(/^[A-Za-z0-9._-]{1,64}$/, 'a connector id like simulator', (connector) => ({ connector })),
};

/**
 * The form to a search, or every field's message at once. Empty fields are absent; a card number
 * typed in a free-text field is refused and not echoed (only BIN and last four are ever searched or shown).
 */
export function parsePaymentSearch(raw: Readonly<Record<string, unknown>>): ParsedSearch {
  const form: Record<string, string> = {};
  const errors: FieldError[] = [];
  for (const field of SEARCH_FIELDS) {
    const value = raw[field];
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '') continue;
    if (FREE_TEXT_FIELDS.has(field) && containsCardNumber(text)) {
      errors.push({ field, message: 'never a card number here: search by BIN and last four digits' });
      continue;
    }
    form[field] = text;
  }
  let filter: PaymentFilter = {};
  for (const [field, parse] of Object.entries(PARSERS) as [SearchField, FieldParser][]) {
    if (form[field] === undefined) continue;
    const parsed = parse(form[field]!);
    if ('error' in parsed) errors.push({ field, message: parsed.error });
    else filter = { ...filter, ...parsed.value };
  }
  filter = { ...filter, ...rangesOf(form, errors) };
  const sort = form['sort'] ?? 'created';
  const order = form['order'] ?? 'desc';
  if (sort !== 'created' && sort !== 'amount') errors.push({ field: 'sort', message: 'created or amount' });
  if (order !== 'desc' && order !== 'asc') errors.push({ field: 'order', message: 'desc or asc' });
  if (errors.length > 0) return { ok: false, errors, form };
  return { ok: true, search: { filter, sort: sort as SortKey, order: order as SortOrder }, form };
}

function rangesOf(form: SearchForm, errors: FieldError[]): Partial<PaymentFilter> {
  const range: { -readonly [K in keyof PaymentFilter]?: PaymentFilter[K] } = {};
  const take = <T>(field: SearchField, parsed: Parsed<T> | undefined, set: (value: T) => void) => {
    if (parsed === undefined) return;
    if ('error' in parsed) errors.push({ field, message: parsed.error });
    else set(parsed.value);
  };
  take('amountFrom', form.amountFrom === undefined ? undefined : parseTypedAmount(form.amountFrom), (v) => { range.amountFromMinor = v; });
  take('amountTo', form.amountTo === undefined ? undefined : parseTypedAmount(form.amountTo), (v) => { range.amountToMinor = v; });
  take('from', form.from === undefined ? undefined : parseDay(form.from), (v) => { range.createdFrom = v; });
  take('to', form.to === undefined ? undefined : parseDay(form.to, 1), (v) => { range.createdBefore = v; });
  if (range.amountFromMinor !== undefined && range.amountToMinor !== undefined && range.amountFromMinor > range.amountToMinor) {
    errors.push({ field: 'amountTo', message: 'not below the amount from' });
  }
  if (range.createdFrom && range.createdBefore && range.createdFrom >= range.createdBefore) {
    errors.push({ field: 'to', message: 'not before the date from' });
  }
  return range;
}
