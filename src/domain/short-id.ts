import { randomInt } from 'node:crypto';

/**
 * The short id printed on statements and used by support: `dddd.dddd.dddd`. Twelve random digits
 * are not unique over millions of payments, and need not be: it is a search key, not an id.
 */
export function newShortId(randomDigit: () => number = () => randomInt(10)): string {
  const group = () => Array.from({ length: 4 }, randomDigit).join('');
  return `${group()}.${group()}.${group()}`;
}

export const SHORT_ID_PATTERN = /^\d{4}\.\d{4}\.\d{4}$/;
