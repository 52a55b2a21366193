import { isValidBic, isValidIban } from '../bank.js';
import { isCountryAlpha2 } from '../iso.js';

/**
 * The merchant's own account as the payment response shows it (core.md: merchant.bankAccount.*
 * holder R; number, the IBAN for SEPA accounts, bic and country C). Shown in full: it is the
 * account the shopper is asked to pay into, published by the merchant, never a shopper's.
 */
export interface MerchantBankAccount {
  readonly holder: string;
  readonly number?: string;
  readonly bic?: string;
  readonly country?: string;
}

export interface FieldProblem {
  readonly name: string;
  readonly value: string;
  readonly message: string;
}

/**
 * Brands whose shopper pays by transferring money into the merchant's account, so the answer
 * must say which account: PREPAYMENT (the shopper pays first, by bank transfer). Boleto and
 * vouchers are paid at a bank or shop against a slip, invoices to the provider: no merchant
 * account is shown for those.
 */
const PAYS_INTO_MERCHANT_ACCOUNT: ReadonlySet<string> = new Set(['PREPAYMENT']);

export function paysIntoMerchantAccount(paymentBrand: string | null | undefined): boolean {
  return paymentBrand !== null && paymentBrand !== undefined && PAYS_INTO_MERCHANT_ACCOUNT.has(paymentBrand);
}

const HOLDER_PATTERN = /^[^\u0000-\u001f\u007f]{1,128}$/;
const NUMBER_PATTERN = /^[A-Za-z0-9]{3,64}$/;

/** The account checked against the response's formats; the problems, when there are any. */
export function checkMerchantBankAccount(input: Readonly<Record<string, string | undefined>>): { account: MerchantBankAccount } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const holder = input['holder']?.trim() ?? '';
  const number = input['number']?.replace(/\s+/g, '').toUpperCase();
  const bic = input['bic']?.trim().toUpperCase();
  const country = input['country']?.trim().toUpperCase();
  const problem = (name: string, value: string, message: string) => problems.push({ name, value: value.slice(0, 64), message });
  if (!HOLDER_PATTERN.test(holder)) problem('holder', holder, 'must be 1 to 128 characters');
  if (number === undefined && bic === undefined) problem('number', '', 'give the account number (IBAN for SEPA accounts) or the BIC');
  if (number !== undefined && !NUMBER_PATTERN.test(number)) problem('number', number, 'must be 3 to 64 letters and digits');
  if (number !== undefined && /^[A-Z]{2}\d{2}/.test(number) && !isValidIban(number)) problem('number', number, 'looks like an IBAN but its check digits or length are wrong');
  if (bic !== undefined && !isValidBic(bic)) problem('bic', bic, 'must be a BIC of 8 or 11 characters');
  if (country !== undefined && !isCountryAlpha2(country)) problem('country', country, 'must be an ISO 3166-1 alpha-2 country code');
  if (problems.length > 0) return { problems };
  return { account: { holder, ...(number ? { number } : {}), ...(bic ? { bic } : {}), ...(country ? { country } : {}) } };
}
