import { formatAmount } from '../../../domain/money.js';

/** An amount as the console shows it: "12.50 EUR". */
export function money(minor: bigint, currency: string): string {
  return `${formatAmount(minor)} ${currency}`;
}

/** A time as the console shows it, in UTC to the second: "2026-11-22 10:00:05 UTC". */
export function utc(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function paymentHref(id: string): string {
  return `/console/payments/${encodeURIComponent(id)}`;
}
