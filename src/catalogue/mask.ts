import { looksSecret } from '../domain/redact.js';
import { maskAccountNumber } from '../domain/bank.js';
import { isLuhnValid, maskCardNumber } from '../domain/card.js';
import type { ParameterRow } from './types.js';

/** How values appear in parameterErrors: secrets masked, everything cut to a readable length. */

export const MASK = '****';
/** Longer values are cut: an error response must stay small whatever the request sent. */
export const MAX_DISPLAYED_LENGTH = 256;

function truncate(text: string): string {
  return text.length > MAX_DISPLAYED_LENGTH ? `${text.slice(0, MAX_DISPLAYED_LENGTH)}…` : text;
}

export function displayName(name: string): string {
  return truncate(name);
}

const DIGIT_RUN = /[0-9]{13,19}/g;

/** A card number sent in the wrong field (descriptor, memo) is still a card number. */
function maskCardNumbers(text: string): string {
  return text.replace(DIGIT_RUN, (run) => (isLuhnValid(run) ? maskCardNumber(run) : run));
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
      return maskCardNumbers(truncate(value));
  }
}

const PAN_LOOKING_VALUE = /[0-9]{12}/;

/** The value of an unknown parameter: masked when its name or its digits look like a secret. */
export function displayUnknownValue(name: string, value: string): string {
  if (value === '') return '';
  return looksSecret(name) || PAN_LOOKING_VALUE.test(value) ? MASK : truncate(value);
}
