import { ENTITY_ID_PATTERN } from '../ids.js';

/**
 * The overview's period, from its GET form: today, the last 7 or 30 days (today included), or
 * custom days from–to (both included). Days are UTC days, whoever looks. Pure: today comes in.
 */
export type PeriodChoice = 'today' | '7d' | '30d' | 'custom';
export const PERIOD_CHOICES: readonly PeriodChoice[] = ['today', '7d', '30d', 'custom'];

/** The longest custom period: a year of days, so a page never reads the whole table live. */
export const MAX_PERIOD_DAYS = 366;

export interface OverviewForm {
  readonly period: string;
  readonly from: string;
  readonly to: string;
  readonly merchant: string;
}

export interface OverviewRequest {
  readonly choice: PeriodChoice;
  /** Inclusive, a UTC midnight. */
  readonly from: Date;
  /** Exclusive, the UTC midnight after the last day. */
  readonly to: Date;
  /** An operator's filter to one merchant. */
  readonly merchantId: string | undefined;
}

export type ParsedOverview =
  | { readonly ok: true; readonly form: OverviewForm; readonly request: OverviewRequest }
  | { readonly ok: false; readonly form: OverviewForm; readonly errors: readonly { readonly field: keyof OverviewForm; readonly message: string }[] };

const DAY_MS = 86_400_000;
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const midnight = (date: Date): Date => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
export const dayText = (date: Date): string => date.toISOString().slice(0, 10);

function parseDay(value: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const day = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(day.getTime()) || dayText(day) !== value ? undefined : day;
}

export function parseOverviewForm(query: Record<string, unknown>, now: Date): ParsedOverview {
  const form: OverviewForm = { period: text(query['period']) || '7d', from: text(query['from']), to: text(query['to']), merchant: text(query['merchant']) };
  const errors: { field: keyof OverviewForm; message: string }[] = [];
  if (form.merchant !== '' && !ENTITY_ID_PATTERN.test(form.merchant)) errors.push({ field: 'merchant', message: 'not a merchant id (32 hexadecimal characters)' });
  const merchantId = form.merchant === '' ? undefined : form.merchant;
  const today = midnight(now);
  if (!(PERIOD_CHOICES as readonly string[]).includes(form.period)) {
    errors.push({ field: 'period', message: 'choose today, 7 days, 30 days or custom' });
    return { ok: false, form, errors };
  }
  const choice = form.period as PeriodChoice;
  if (choice !== 'custom') {
    const days = choice === 'today' ? 1 : choice === '7d' ? 7 : 30;
    if (errors.length > 0) return { ok: false, form, errors };
    return { ok: true, form, request: { choice, from: new Date(today.getTime() - (days - 1) * DAY_MS), to: new Date(today.getTime() + DAY_MS), merchantId } };
  }
  const from = parseDay(form.from);
  const last = parseDay(form.to);
  if (!from) errors.push({ field: 'from', message: 'a date like 2026-11-27' });
  if (!last) errors.push({ field: 'to', message: 'a date like 2026-11-27' });
  if (from && last && last < from) errors.push({ field: 'to', message: 'not before the date from' });
  if (from && last && (last.getTime() - from.getTime()) / DAY_MS + 1 > MAX_PERIOD_DAYS) errors.push({ field: 'to', message: `at most ${MAX_PERIOD_DAYS} days after the date from` });
  if (errors.length > 0 || !from || !last) return { ok: false, form, errors };
  return { ok: true, form, request: { choice, from, to: new Date(last.getTime() + DAY_MS), merchantId } };
}
