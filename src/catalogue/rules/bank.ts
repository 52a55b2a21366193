import { isValidIban } from '../../domain/bank.js';
import { DEFAULT_CODE } from '../define.js';
import { ACCOUNT_DATA } from '../use.js';
import { redirectBrand } from './asynchronous.js';
import { violation, type ConditionalRule, type RuleContext, type RuleViolation } from './types.js';

/** Bank account rules: account identification, IBAN checksum, SEPA mandate. */

/**
 * Whether bankAccount.* names an account the payment debits. With an asynchronous brand it
 * describes the shopper's bank instead (country, name, BIC, for giropay even the IBAN): the
 * shopper approves at that bank, which knows the holder and the account, so neither is required.
 */
function isAccountToDebit(context: RuleContext): boolean {
  return context.hasAnyUnder('bankAccount.') && redirectBrand(context) === undefined;
}

export const bankAccountHolderRequired: ConditionalRule = {
  id: 'bankAccountHolderRequired',
  description: 'bankAccount.holder is required when other bankAccount.* parameters are sent, unless they describe the shopper\'s bank for an asynchronous paymentBrand.',
  codes: ['100.100.400'],
  check(context) {
    if (!isAccountToDebit(context) || context.has('bankAccount.holder')) return [];
    return [violation('bankAccount.holder', '100.100.400', 'is required when other bankAccount.* parameters are sent')];
  },
};

export const bankAccountNumberOrIban: ConditionalRule = {
  id: 'bankAccountNumberOrIban',
  description: 'A bank account is identified by bankAccount.number or bankAccount.iban (not for an asynchronous paymentBrand, where bankAccount.* describes the shopper\'s bank).',
  codes: ['100.100.100'],
  check(context) {
    if (!isAccountToDebit(context)) return [];
    if (context.has('bankAccount.number') || context.has('bankAccount.iban')) return [];
    return [violation('bankAccount.iban', '100.100.100', 'is required, or bankAccount.number')];
  },
};

/**
 * "Either bankCode or bic is required" is read as: when the account is a national number. An
 * IBAN already contains the bank code, and SEPA has not needed a BIC beside it since 2016.
 */
export const bankCodeOrBic: ConditionalRule = {
  id: 'bankCodeOrBic',
  description: 'An account given by bankAccount.number (without IBAN) also names its bank: bankAccount.bankCode or bankAccount.bic.',
  codes: [DEFAULT_CODE],
  check(context) {
    if (!context.has('bankAccount.number') || context.has('bankAccount.iban') || !isAccountToDebit(context)) return [];
    if (context.has('bankAccount.bankCode') || context.has('bankAccount.bic')) return [];
    return [violation('bankAccount.bic', DEFAULT_CODE, 'is required, or bankAccount.bankCode, with bankAccount.number')];
  },
};

export const ibanChecksum: ConditionalRule = {
  id: 'ibanChecksum',
  description: 'bankAccount.iban has its country\'s length and a valid mod-97 check (ibantools).',
  codes: ['100.100.101'],
  check(context) {
    const iban = context.value('bankAccount.iban');
    if (iban === undefined || isValidIban(iban)) return [];
    return [violation('bankAccount.iban', '100.100.101', 'has a wrong check digit or length for its country')];
  },
};

export const SEPA_DIRECT_DEBIT_BRAND = 'DIRECTDEBIT_SEPA';

export const sepaMandateRequired: ConditionalRule = {
  id: 'sepaMandateRequired',
  // The spec marks the mandate fields C without naming the condition, and OPPWA clients send
  // SEPA debits without them (docs/compatibility.md): they are required together, not always.
  description: `A ${SEPA_DIRECT_DEBIT_BRAND} payment or registration carries the account (bankAccount.iban or number); its mandate, when sent, carries both bankAccount.mandate.id and bankAccount.mandate.dateOfSignature.`,
  codes: ['100.100.100', '100.500.303', '100.500.302'],
  check(context) {
    if (context.value('paymentBrand') !== SEPA_DIRECT_DEBIT_BRAND || !ACCOUNT_DATA.includes(context.endpoint)) return [];
    const found: RuleViolation[] = [];
    if (!context.has('bankAccount.iban') && !context.has('bankAccount.number')) {
      found.push(violation('bankAccount.iban', '100.100.100', `is required for ${SEPA_DIRECT_DEBIT_BRAND}`));
    }
    const hasId = context.has('bankAccount.mandate.id');
    const hasDate = context.has('bankAccount.mandate.dateOfSignature');
    if (hasDate && !hasId) found.push(violation('bankAccount.mandate.id', '100.500.303', 'is required with bankAccount.mandate.dateOfSignature'));
    if (hasId && !hasDate) found.push(violation('bankAccount.mandate.dateOfSignature', '100.500.302', 'is required with bankAccount.mandate.id'));
    return found;
  },
};
