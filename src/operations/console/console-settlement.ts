import type { Visibility } from '../../domain/access/actor.js';
import { ENTITY_ID_PATTERN, type Clock } from '../../domain/ids.js';
import type { Queryable } from '../../storage/port.js';
import { findAggregation, listAggregations, type AggregationTotals } from '../../storage/repositories/settlement-aggregations.js';
import { aggregationLines, chargebackLines, type StoredLine } from '../../storage/repositories/settlement-lines.js';
import { REPORT_PAGE_RECORDS, describeCode } from '../settlement/reports.js';
import { invalidField } from './console-action.js';
import { paymentNotFound } from './load-payment-detail.js';

/** The most batches (or chargebacks) one list shows: narrow the days or the merchant to see others. */
export const SETTLEMENT_LIST_ROWS = 200;
/** Without dates, the list shows the settlement days of the last 30 days. */
export const DEFAULT_SPAN_DAYS = 30;
/** The longest span one list may ask for (a year and a day). */
export const MAX_SPAN_DAYS = 366;

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const CURRENCY = /^[A-Z]{3}$/;

export interface SettlementFilter {
  readonly from: string;
  readonly to: string;
  readonly currency: string | undefined;
  /** The merchant whose settlement is shown; undefined: every merchant's (operators only). */
  readonly merchantId: string | undefined;
}

const text = (query: Readonly<Record<string, unknown>>, name: string): string => (typeof query[name] === 'string' ? String(query[name]).trim() : '');

function parseDay(name: string, value: string): string {
  const time = Date.parse(`${value}T00:00:00Z`);
  if (!DAY.test(value) || Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) throw invalidField(name, value, 'must be a day, yyyy-MM-dd');
  return value;
}

/** The list's query string, checked: a wrong value is named (the page answers 400 with it). */
export function parseSettlementFilter(query: Readonly<Record<string, unknown>>, visibility: Visibility, clock: Clock): SettlementFilter {
  const today = clock.now().toISOString().slice(0, 10);
  const to = text(query, 'to') === '' ? today : parseDay('to', text(query, 'to'));
  const fromDefault = new Date(Date.parse(`${to}T00:00:00Z`) - DEFAULT_SPAN_DAYS * DAY_MS).toISOString().slice(0, 10);
  const from = text(query, 'from') === '' ? fromDefault : parseDay('from', text(query, 'from'));
  if (from > to) throw invalidField('from', from, 'must be on or before the last day');
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS > MAX_SPAN_DAYS) throw invalidField('from', from, `the days may span at most ${MAX_SPAN_DAYS} days`);
  const currency = text(query, 'currency').toUpperCase();
  if (currency !== '' && !CURRENCY.test(currency)) throw invalidField('currency', currency, 'must be a currency code, three letters');
  const merchant = text(query, 'merchant');
  if (merchant !== '' && visibility.kind !== 'all') throw invalidField('merchant', merchant, 'only operators choose a merchant: you see your own');
  if (merchant !== '' && !ENTITY_ID_PATTERN.test(merchant)) throw invalidField('merchant', merchant, 'must be a merchant id (32 hex)');
  return { from, to, currency: currency || undefined, merchantId: merchant || undefined };
}

/** Whose settlement the person reads: a merchant's person their merchant's, always (checked in the query). */
function scopeOf(visibility: Visibility, chosen: string | undefined): string | null {
  return visibility.kind === 'merchant' ? visibility.merchantId : chosen ?? null;
}

/** The batches (one acquirer batch of one merchant, in its settlement currency) the person may see, newest day first. */
export async function listSettlementBatches(deps: { readonly storage: Queryable }, visibility: Visibility, filter: SettlementFilter): Promise<AggregationTotals[]> {
  return listAggregations(deps.storage, scopeOf(visibility, filter.merchantId), { from: filter.from, to: filter.to, currency: filter.currency, limit: SETTLEMENT_LIST_ROWS, newestFirst: true });
}

export interface SettlementBatchPage {
  readonly batch: AggregationTotals;
  readonly lines: readonly StoredLine[];
  readonly pageNo: number;
  readonly pages: number;
}

/** A batch with one page of its records (the paged report's pages), or the 404 of a batch nobody may see. */
export async function loadSettlementBatch(deps: { readonly storage: Queryable }, visibility: Visibility, id: string, pageText: string | undefined): Promise<SettlementBatchPage> {
  if (!/^[a-zA-Z0-9]{32}$/.test(id)) throw paymentNotFound();
  const batch = await findAggregation(deps.storage, scopeOf(visibility, undefined), id);
  if (!batch) throw paymentNotFound();
  const pages = Math.max(1, Math.ceil(batch.records / REPORT_PAGE_RECORDS));
  const pageNo = pageText === undefined || pageText === '' ? 1 : Number(pageText);
  if (!Number.isSafeInteger(pageNo) || pageNo < 1 || pageNo > pages) throw invalidField('page', String(pageText), `must be a page from 1 to ${pages}`);
  const lines = await aggregationLines(deps.storage, { aggregationId: batch.id, byTransactionDate: false, descending: false, offset: (pageNo - 1) * REPORT_PAGE_RECORDS, limit: REPORT_PAGE_RECORDS }, describeCode);
  return { batch, lines, pageNo, pages };
}

/** Chargebacks and reversals the person may see, settled in the filter's days, newest first. */
export async function listChargebacks(deps: { readonly storage: Queryable }, visibility: Visibility, filter: SettlementFilter): Promise<StoredLine[]> {
  return chargebackLines(deps.storage, { merchantId: scopeOf(visibility, filter.merchantId), from: filter.from, to: filter.to, currency: filter.currency, limit: SETTLEMENT_LIST_ROWS }, describeCode);
}
