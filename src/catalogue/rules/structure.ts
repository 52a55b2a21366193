import { DEFAULT_CODE } from '../define.js';
import { violation, type ConditionalRule, type RuleViolation } from './types.js';

/** Rules about the shape of a request: array sizes, pairs, and what an endpoint admits. */

/** Items per array: the spec's cart limit (indexes 0 to 999), applied to every indexed structure. */
export const MAX_ITEMS_PER_ARRAY = 1000;
const CART_CODE = '100.400.320';

export const arrayIndexWithinLimit: ConditionalRule = {
  id: 'arrayIndexWithinLimit',
  description: `Indexed names ([n]) use indexes 0 to ${MAX_ITEMS_PER_ARRAY - 1}: at most ${MAX_ITEMS_PER_ARRAY} cart items, and the same bound for every other array.`,
  codes: [CART_CODE, DEFAULT_CODE],
  check(context) {
    const found: RuleViolation[] = [];
    for (const field of context.fields()) {
      const indexes = field.resolved.indexes;
      if (indexes.length === 0 || Math.max(...indexes) < MAX_ITEMS_PER_ARRAY) continue;
      const code = field.name.startsWith('cart.') ? CART_CODE : DEFAULT_CODE;
      found.push(violation(field.name, code, `index must be between 0 and ${MAX_ITEMS_PER_ARRAY - 1}`));
    }
    return found;
  },
};

export const referencingAmountAndCurrency: ConditionalRule = {
  id: 'referencingAmountAndCurrency',
  // The amount is a money rule and stays required; the currency may be left out, and is then the
  // referenced payment's (OPPWA clients omit it; docs/compatibility.md).
  description: 'A capture (CP) or refund (RF) names its amount; its currency, when left out, is the referenced payment\'s; a reversal (RV) needs neither.',
  codes: ['100.550.300'],
  check(context) {
    if (context.endpoint !== 'referencing') return [];
    const type = context.value('paymentType');
    if (type !== 'CP' && type !== 'RF') return [];
    const found: RuleViolation[] = [];
    if (!context.has('amount')) found.push(violation('amount', '100.550.300', `is required for paymentType ${type}`));
    return found;
  },
};

/** Both halves of a pair, or neither. */
function pairRule(id: string, first: string, second: string, why: string): ConditionalRule {
  return {
    id,
    description: `${first} and ${second} are sent together: ${why}.`,
    codes: [DEFAULT_CODE],
    check(context) {
      if (context.has(first) && !context.has(second)) return [violation(second, DEFAULT_CODE, `is required with ${first}`)];
      if (context.has(second) && !context.has(first)) return [violation(first, DEFAULT_CODE, `is required with ${second}`)];
      return [];
    },
  };
}

export const forexPair = pairRule('forexPair', 'forex.amount', 'forex.currency', 'a conversion needs both');

export const queryTimeFramePair = pairRule('queryTimeFramePair', 'date.from', 'date.to', 'a time frame has a start and an end');

export const queryByReferenceOrTimeFrame: ConditionalRule = {
  id: 'queryByReferenceOrTimeFrame',
  description: 'A query names merchantTransactionId or a time frame (date.from, date.to), not both.',
  codes: [DEFAULT_CODE],
  check(context) {
    if (context.endpoint !== 'query' || !context.has('merchantTransactionId')) return [];
    if (!context.has('date.from') && !context.has('date.to')) return [];
    return [violation('merchantTransactionId', DEFAULT_CODE, 'must not be combined with date.from and date.to')];
  },
};

export const dateRangeOrdered: ConditionalRule = {
  id: 'dateRangeOrdered',
  description: 'date.to is after date.from (query: the end is exclusive) or the same day (reporting).',
  codes: [DEFAULT_CODE],
  check(context) {
    const from = context.value('date.from');
    const to = context.value('date.to');
    if (from === undefined || to === undefined) return [];
    // Both have one fixed width format, so text order is time order.
    const ordered = context.endpoint === 'query' ? to > from : to >= from;
    return ordered ? [] : [violation('date.to', DEFAULT_CODE, `must not be before date.from${context.endpoint === 'query' ? ' or equal to it' : ''}`)];
  },
};

export const WIDGET_CUSTOM_PARAMETER_PREFIX = 'SHOPPER_';

export const widgetCustomParametersPrefix: ConditionalRule = {
  id: 'widgetCustomParametersPrefix',
  description: `Custom parameters posted by the widget from the shopper's browser have names starting with ${WIDGET_CUSTOM_PARAMETER_PREFIX}, so a shopper can never set the merchant's own ones.`,
  codes: [DEFAULT_CODE],
  check(context) {
    if (context.endpoint !== 'checkoutPayment') return [];
    return context
      .fieldsUnder('customParameters[')
      .filter((field) => !field.resolved.mapKey?.startsWith(WIDGET_CUSTOM_PARAMETER_PREFIX))
      .map((field) => violation(field.name, DEFAULT_CODE, `name must start with ${WIDGET_CUSTOM_PARAMETER_PREFIX}`));
  },
};

/**
 * A checkout prepares a payment (amount, currency and paymentType required) unless it only
 * registers the shopper's account: createRegistration=true without a paymentType.
 */
export const checkoutPaymentData: ConditionalRule = {
  id: 'checkoutPaymentData',
  description: 'A checkout needs amount, currency and paymentType, unless it only registers an account (createRegistration=true and no paymentType; the widget then posts to /v1/checkouts/{id}/registration).',
  codes: ['100.550.300', '100.550.400', DEFAULT_CODE],
  check(context) {
    if (context.endpoint !== 'checkout') return [];
    if (context.value('createRegistration') === 'true' && !context.has('paymentType')) return [];
    const missing: RuleViolation[] = [];
    if (!context.has('amount')) missing.push(violation('amount', '100.550.300', 'is required for a payment checkout'));
    if (!context.has('currency')) missing.push(violation('currency', '100.550.400', 'is required for a payment checkout'));
    if (!context.has('paymentType')) missing.push(violation('paymentType', DEFAULT_CODE, 'is required for a payment checkout (DB or PA), or send createRegistration=true alone to register an account'));
    return missing;
  },
};
