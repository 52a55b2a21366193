import { brandMatchesNumber, cardBrand, detectCardBrand, isCardExpired, isLuhnValid } from '../../domain/card.js';
import { DEFAULT_CODE } from '../define.js';
import type { Endpoint } from '../types.js';
import { violation, type ConditionalRule, type RuleContext, type RuleViolation } from './types.js';

/** Card rules: brand, Luhn, expiry, CVV, and the wallet variants that carry card data. */

/** The brand the request names, or the one its card number reveals. */
export function effectiveBrand(context: RuleContext): string | undefined {
  const named = context.value('paymentBrand');
  if (named !== undefined) return named;
  const cardNumber = context.value('card.number');
  return cardNumber === undefined ? undefined : detectCardBrand(cardNumber);
}

/** Endpoints where paymentBrand is conditional: it may be left out only for a detectable card. */
const BRAND_NEEDED: readonly Endpoint[] = ['payment', 'registration', 'checkoutPayment'];

export const paymentBrandRequired: ConditionalRule = {
  id: 'paymentBrandRequired',
  description: "paymentBrand is required unless card.number lies in the range of a known card brand, which then becomes the brand, or the widget pays with a stored card (registrationId: the registration's brand).",
  codes: ['100.100.500', DEFAULT_CODE],
  check(context) {
    if (!BRAND_NEEDED.includes(context.endpoint) || context.has('paymentBrand')) return [];
    if (context.endpoint === 'checkoutPayment' && context.has('registrationId')) return [];
    if (!context.has('card.number')) return [violation('paymentBrand', DEFAULT_CODE, 'is required')];
    if (effectiveBrand(context) !== undefined || context.value('card.number') === undefined) return [];
    return [violation('paymentBrand', '100.100.500', 'is required: the brand cannot be detected from card.number')];
  },
};

export const cardNumberLuhn: ConditionalRule = {
  id: 'cardNumberLuhn',
  description: 'card.number passes the Luhn check, unless the named brand issues numbers without one (UNIONPAY) or is no card brand of the table.',
  codes: ['100.100.101'],
  check(context) {
    const cardNumber = context.value('card.number');
    if (cardNumber === undefined) return [];
    const named = context.value('paymentBrand');
    if (named !== undefined && !cardBrand(named)?.luhnChecked) return [];
    return isLuhnValid(cardNumber) ? [] : [violation('card.number', '100.100.101', 'fails the Luhn check')];
  },
};

export const cardBrandMatchesNumber: ConditionalRule = {
  id: 'cardBrandMatchesNumber',
  description: 'A paymentBrand of the card table must match the number range of card.number.',
  codes: ['100.100.700'],
  check(context) {
    const brand = context.value('paymentBrand');
    const cardNumber = context.value('card.number');
    if (brand === undefined || cardNumber === undefined) return [];
    return brandMatchesNumber(brand, cardNumber) === false
      ? [violation('paymentBrand', '100.100.700', 'does not match the number range of card.number')]
      : [];
  },
};

function expiryViolation(context: RuleContext, prefix: 'card.' | 'tokenAccount.'): RuleViolation[] {
  const month = context.value(`${prefix}expiryMonth`);
  const year = context.value(`${prefix}expiryYear`);
  if (month === undefined || year === undefined) return [];
  if (!isCardExpired(Number(month), Number(year), context.now)) return [];
  return [violation(`${prefix}expiryYear`, '100.100.303', `with ${prefix}expiryMonth lies in the past: card expired`)];
}

export const cardNotExpired: ConditionalRule = {
  id: 'cardNotExpired',
  description: 'The expiry month of card.* and tokenAccount.* is the current month (UTC) or later.',
  codes: ['100.100.303'],
  check: (context) => [...expiryViolation(context, 'card.'), ...expiryViolation(context, 'tokenAccount.')],
};

/** Endpoints that authorise card data the shopper just entered. */
const CVV_CHECKED: readonly Endpoint[] = ['payment', 'checkoutPayment'];

/**
 * Payments where no shopper is present to give a CVV, or where something else authenticates the
 * card: a repeated or merchant-initiated standing instruction, decrypted wallet data (the wallet's
 * cryptogram does the job), and device PANs.
 */
export function isCvvExempt(context: RuleContext): boolean {
  return (
    context.value('standingInstruction.mode') === 'REPEATED' ||
    context.value('standingInstruction.source') === 'MIT' ||
    context.value('card.numberType') === 'DPAN' ||
    ['walletA', 'walletB', 'walletC'].some((wallet) => context.has(`${wallet}.source`))
  );
}

export const cvvRequiredForBrand: ConditionalRule = {
  id: 'cvvRequiredForBrand',
  description:
    'card.cvv is required on payments with card data for brands whose table entry says so (not for repeated or MIT standing instructions, wallets, device PANs, or registrations), and has the brand\'s length.',
  codes: ['100.100.600', '100.100.601'],
  check(context) {
    const entry = cardBrand(effectiveBrand(context) ?? '');
    if (!entry || !context.has('card.number')) return [];
    const cvv = context.value('card.cvv');
    if (cvv !== undefined && cvv.length !== entry.cvvLength) {
      return [violation('card.cvv', '100.100.601', `must have ${entry.cvvLength} digits for ${entry.brand}`)];
    }
    if (context.has('card.cvv') || entry.cvv !== 'required' || !CVV_CHECKED.includes(context.endpoint)) return [];
    return isCvvExempt(context) ? [] : [violation('card.cvv', '100.100.600', `is required for ${entry.brand}`)];
  },
};
