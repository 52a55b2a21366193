import { parseAmount } from '../domain/money.js';
import type { ValueKind } from './types.js';

/** Wire strings to typed values; called only on values their format has accepted. */

export type TypedValue = string | bigint | boolean | Date | number | readonly string[];

function utcDate(value: string): Date {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years below 100 as they are.
  date.setUTCFullYear(Number(value.slice(0, 4)), Number(value.slice(5, 7)) - 1, Number(value.slice(8, 10)));
  if (value.length >= 19) date.setUTCHours(Number(value.slice(11, 13)), Number(value.slice(14, 16)), Number(value.slice(17, 19)), 0);
  return date;
}

/** `+0100` means local time is one hour ahead of UTC, so one hour is subtracted. */
function withOffset(value: string): Date {
  const date = utcDate(value);
  const sign = value[19] === '-' ? -1 : 1;
  const offsetMinutes = Number(value.slice(20, 22)) * 60 + Number(value.slice(22, 24));
  return new Date(date.getTime() - sign * offsetMinutes * 60_000);
}

export function toTypedValue(kind: ValueKind, value: string): TypedValue {
  switch (kind) {
    case 'amount':
      return parseAmount(value);
    case 'boolean':
      return value === 'true';
    case 'date':
    case 'dateTime':
      return utcDate(value);
    case 'timestamp':
      return withOffset(value);
    case 'integer':
      return Number(value);
    case 'list':
      return Object.freeze(value.split(','));
    case 'text':
      return value;
  }
}
