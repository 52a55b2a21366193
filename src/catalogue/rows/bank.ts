import { defineRows } from '../define.js';
import { chars, countryAlpha2, pattern, text } from '../formats.js';
import { date } from '../formats-time.js';
import { isValidBic } from '../../domain/bank.js';
import { ACCOUNT_DATA, INITIAL_PAYMENTS, conditional } from '../use.js';
import type { ParameterRow } from '../types.js';

/** Core: bank account for direct debits, SEPA and bank transfers (transactionDueDate is in basic). */

export const bankRows: readonly ParameterRow[] = defineRows({ section: 'Bank account', use: conditional(ACCOUNT_DATA) }, [
  // Required with the other bankAccount.* fields by a rule (bankAccountHolderRequired), which
  // knows that an asynchronous brand's bankAccount.* describes the shopper's bank, not an account.
  ['bankAccount.holder', text(128, 4), {
    code: '100.100.401',
    missingCode: '100.100.400',
    sample: 'Jane Jones',
  }],
  ['bankAccount.bankName', text(255), { sample: 'Sample Bank' }],
  ['bankAccount.number', chars('a-zA-Z0-9', 64, 3, 'AN64, a-z A-Z 0-9, 3 to 64', '1234567890'), {
    secret: 'last4',
    code: '100.200.104',
    description: 'Either number or iban is required.',
  }],
  ['bankAccount.iban', pattern('^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,27}$', {
    notation: 'AN31: 2 letters, 2 digits, 11 to 27 alphanumerics',
    min: 15,
    max: 31,
    sample: 'DE23100000001234567890',
    bad: 'DE23 1000 0000 1234 5678 90',
  }), { secret: 'last4', code: '100.200.104' }],
  ['bankAccount.bankCode', chars('a-zA-Z0-9', 12, 1, 'AN12, alphanumeric', '10000000'), {
    code: '100.200.103',
    description: 'Either bankCode or bic is required when the account is given by number.',
  }],
  ['bankAccount.bic', pattern('^[A-Za-z0-9]{8}([A-Za-z0-9]{3})?$', {
    notation: '8 or 11 alphanumerics',
    min: 8,
    max: 11,
    sample: 'MARKDEF1100',
    bad: 'MARKDEF110',
    semantic: { test: isValidBic, message: 'must be a valid BIC' },
  }), { code: '100.200.103' }],
  ['bankAccount.country', countryAlpha2(), { code: '100.200.100' }],
  // The spec allows letters and hyphens only; mandate references with digits are rejected on purpose.
  ['bankAccount.mandate.id', chars('a-zA-Z-', 256, 1, 'AN256, letters and hyphens', 'MANDATE-JANE-JONES'), { code: '100.500.303' }],
  ['bankAccount.mandate.dateOfSignature', date({ sample: '2024-05-17' }), { code: '100.500.302' }],
  ['transactionDueDate', date(), { use: conditional(INITIAL_PAYMENTS), code: '100.500.301', description: 'Due date of the direct debit.' }],
]);
