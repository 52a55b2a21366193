import { isValidBIC, isValidIBAN } from 'ibantools';

/** IBAN in electronic form (no spaces), with its country length and mod-97 checksum verified. */
export function isValidIban(iban: string): boolean {
  return isValidIBAN(iban);
}

/** BIC of 8 or 11 characters whose country part is a real country. */
export function isValidBic(bic: string): boolean {
  return isValidBIC(bic.toUpperCase());
}

/** The last four characters of an account number or IBAN, the only part responses may show. */
export function accountLast4(account: string): string {
  return account.slice(-4);
}

/** "****7890": enough for a human to recognise the account, useless to anybody else. */
export function maskAccountNumber(account: string): string {
  return account.length > 4 ? `****${accountLast4(account)}` : '****';
}
