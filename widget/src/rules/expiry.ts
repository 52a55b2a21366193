/**
 * The expiry field (`wpwl-control-expiry`): one input written "MM / YY" as on the card. The
 * shopper may type "1230", "12/30", "12 / 2030"; the API wants two digits of month and four of year.
 */
import { isCardExpired } from '../../../src/domain/card.js';

export interface Expiry {
  readonly month: string;
  readonly year: string;
}

export type ExpiryState = 'empty' | 'incomplete' | 'invalid' | 'expired' | 'valid';

/** "12/30" → { month: '12', year: '2030' }; undefined while it is not a whole month and year. */
export function parseExpiry(input: string): Expiry | undefined {
  const match = /^\s*(\d{1,2})\s*[/\-. ]?\s*(\d{2}|\d{4})\s*$/.exec(input);
  if (!match) return undefined;
  const [, monthText = '', yearText = ''] = match;
  // "123" could be 1/23 or 12/3: only two-digit months are read without a separator.
  if (monthText.length === 1 && !/[/\-. ]/.test(input)) return undefined;
  const month = Number(monthText);
  if (month < 1 || month > 12) return undefined;
  return { month: String(month).padStart(2, '0'), year: yearText.length === 2 ? `20${yearText}` : yearText };
}

/** Cards are issued for at most about 20 years; a later year is a typing error. */
const MAX_YEARS_AHEAD = 20;

export function expiryState(input: string, now: Date): ExpiryState {
  if (input.trim() === '') return 'empty';
  const expiry = parseExpiry(input);
  if (!expiry) return input.replace(/\D/g, '').length < 4 ? 'incomplete' : 'invalid';
  const year = Number(expiry.year);
  if (year > now.getUTCFullYear() + MAX_YEARS_AHEAD) return 'invalid';
  return isCardExpired(Number(expiry.month), year, now) ? 'expired' : 'valid';
}

/** As the shopper types digits: "1" → "1", "12" → "12 / ", "123" → "12 / 3". Deleting is left alone. */
export function formatExpiryInput(input: string, deleting: boolean): string {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  if (deleting) return input;
  if (digits.length === 1 && Number(digits) > 1) return `0${digits} / `;
  if (digits.length < 2) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}
