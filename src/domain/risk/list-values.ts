import { isValidIban, maskAccountNumber } from '../bank.js';
import { isLuhnValid } from '../card.js';
import { isCountryAlpha2 } from '../iso.js';
import { normalizeAccountNumber } from '../vault/fingerprint.js';
import { LIST_KINDS, type ListKind } from './facts.js';
import { canonicalEmail, displayEmail } from './canonical-email.js';
import { canonicalIp } from './keys.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/**
 * A list value as the operator gave it, checked and normalised: the form the payment facts take,
 * so that "4200 0000 0000 0000" and "4200-0000-0000-0000" are one card, and `bad+x@evil.test.`
 * and `bad@evil.test` one address (canonicalEmail, canonicalIp). Card and IBAN come back
 * as `secret` (to be fingerprinted by the vault, never stored); `shown` is what the list shows.
 */
export type ListValue =
  | { readonly kind: ListKind; readonly value: string; readonly shown: string; readonly secret: false }
  | { readonly kind: 'card' | 'iban'; readonly number: string; readonly shown: string; readonly secret: true };

export function parseListKind(text: string): ListKind | undefined {
  return (LIST_KINDS as readonly string[]).includes(text) ? (text as ListKind) : undefined;
}

/** The value normalised for its kind, or the reason it is refused (never containing the value). */
export function parseListValue(kind: ListKind, raw: string): ListValue | { readonly error: string } {
  const text = raw.trim();
  switch (kind) {
    case 'card': {
      const number = normalizeAccountNumber(text);
      if (!/^[0-9]{12,19}$/.test(number) || !isLuhnValid(number)) return { error: 'must be a card number of 12 to 19 digits with a valid check digit' };
      return { kind, number, shown: `${number.slice(0, 6)}…${number.slice(-4)}`, secret: true };
    }
    case 'iban': {
      const number = normalizeAccountNumber(text);
      if (!isValidIban(number)) return { error: 'must be a valid IBAN' };
      return { kind, number, shown: maskAccountNumber(number), secret: true };
    }
    case 'bin':
      return /^[0-9]{6,8}$/.test(text) ? { kind, value: text, shown: text, secret: false } : { error: 'must be 6 to 8 digits' };
    case 'email':
      // Stored in the one form a payment's address is looked up in (canonicalEmail), shown as written.
      return EMAIL.test(text) ? { kind, value: canonicalEmail(text), shown: displayEmail(text), secret: false } : { error: 'must be an e-mail address' };
    case 'ip': {
      const ip = canonicalIp(text);
      return ip ? { kind, value: ip, shown: ip, secret: false } : { error: 'must be an IPv4 or IPv6 address' };
    }
    case 'country': {
      const country = text.toUpperCase();
      return isCountryAlpha2(country) ? { kind, value: country, shown: country, secret: false } : { error: 'must be an ISO alpha-2 country code' };
    }
  }
}
