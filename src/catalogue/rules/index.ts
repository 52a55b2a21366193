import { asynchronousBrandData } from './asynchronous.js';
import { bankAccountHolderRequired, bankAccountNumberOrIban, bankCodeOrBic, ibanChecksum, sepaMandateRequired } from './bank.js';
import {
  cardBrandMatchesNumber,
  cardNotExpired,
  cardNumberLuhn,
  cvvRequiredForBrand,
  paymentBrandRequired,
} from './card.js';
import { jobDayOfWeekOrDayOfMonth } from './job.js';
import { customerNamesRequired, houseNumber2NeedsHouseNumber1, identificationDocPair, streetNotDigitsOnly } from './party.js';
import {
  arrayIndexWithinLimit,
  dateRangeOrdered,
  forexPair,
  queryByReferenceOrTimeFrame,
  queryTimeFramePair,
  referencingAmountAndCurrency,
  widgetCustomParametersPrefix,
  checkoutPaymentData,
} from './structure.js';
import type { ConditionalRule } from './types.js';
import { walletDataComplete } from './wallet.js';
import { networkFUseCaseRequired } from './three-d-secure.js';

/**
 * The conditional rules in precedence order: request shape first, then what the payment is
 * (amounts, brand), then the account (card, wallet, bank), then the parties, then 3D Secure and
 * scheduling. The first violation of the first rule decides the result code when no earlier stage
 * failed.
 */
export const RULES: readonly ConditionalRule[] = Object.freeze([
  arrayIndexWithinLimit,
  widgetCustomParametersPrefix,
  referencingAmountAndCurrency,
  checkoutPaymentData,
  forexPair,
  queryTimeFramePair,
  queryByReferenceOrTimeFrame,
  dateRangeOrdered,
  paymentBrandRequired,
  asynchronousBrandData,
  cardNumberLuhn,
  cardBrandMatchesNumber,
  cardNotExpired,
  cvvRequiredForBrand,
  walletDataComplete,
  bankAccountHolderRequired,
  bankAccountNumberOrIban,
  ibanChecksum,
  bankCodeOrBic,
  sepaMandateRequired,
  customerNamesRequired,
  identificationDocPair,
  houseNumber2NeedsHouseNumber1,
  streetNotDigitsOnly,
  networkFUseCaseRequired,
  jobDayOfWeekOrDayOfMonth,
]);

export type { ConditionalRule, RuleContext, RuleViolation } from './types.js';
