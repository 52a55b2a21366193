import { randomInt } from 'node:crypto';

/**
 * The short id printed on statements and used by support: `dddd.dddd.dddd`. Twelve random digits
 * are not unique over millions of payments, and need not be: it is a search key, not an id.
 * One random number per group of four digits (three draws, not twelve: a payment makes one).
 */
export function newShortId(randomGroup: () => number = () => randomInt(10_000)): string {
  const group = () => String(randomGroup()).padStart(4, '0');
  return `${group()}.${group()}.${group()}`;
}

export const SHORT_ID_PATTERN = /^\d{4}\.\d{4}\.\d{4}$/;
