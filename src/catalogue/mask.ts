import { hasDigitRun, maskDigitRuns } from '../domain/card-numbers-in-text.js';
import { looksSecret } from '../domain/redact.js';
import { maskAccountNumber } from '../domain/bank.js';
import { maskCardNumber } from '../domain/card.js';
import type { ParameterRow } from './types.js';

/**
 * How values appear in parameterErrors: secrets masked, everything cut to a readable length.
 * Masking comes before cutting: a card number cut at the end is no longer Luhn-valid or long
 * enough to be recognised, and its first digits would show.
 */

export const MASK = '****';
/** Longer values are cut: an error response must stay small whatever the request sent. */
export const MAX_DISPLAYED_LENGTH = 256;

function truncate(text: string): string {
  return text.length > MAX_DISPLAYED_LENGTH ? `${text.slice(0, MAX_DISPLAYED_LENGTH)}…` : text;
}

/**
 * Any run of twelve or more digits (split by spaces or dashes or not) shows as first six and last
 * four, Luhn-valid or not: a card number in the wrong field, cut short or mistyped, is still one.
 */
function masked(text: string): string {
  return truncate(maskDigitRuns(text));
}

export function displayName(name: string): string {
  return masked(name);
}

/** A known row's value: masked per the row's secret style. */
export function displayRowValue(row: ParameterRow, value: string): string {
  if (value === '') return '';
  switch (row.secret) {
    case 'pan':
      return maskCardNumber(value);
    case 'last4':
      return maskAccountNumber(value);
    case 'full':
      return MASK;
    default:
      return masked(value);
  }
}

/** The value of an unknown parameter: masked whole when its name or its digits look like a secret. */
export function displayUnknownValue(name: string, value: string): string {
  if (value === '') return '';
  return looksSecret(name) || hasDigitRun(value) ? MASK : truncate(value);
}
