import { ASYNCHRONOUS_BRANDS, asynchronousBrand, type AsynchronousBrand } from '../../domain/payment-brands.js';
import { endpointCatalogue } from '../catalogue.js';
import { DEFAULT_CODE } from '../define.js';
import type { Endpoint } from '../types.js';
import { violation, type ConditionalRule, type RuleContext, type RuleViolation } from './types.js';

/** Asynchronous (redirect) brands: what the method needs, and what it must not carry. */

/** Endpoints that start a payment with the shopper's account: the server's and the widget's. */
const REDIRECT_PAYMENTS: readonly Endpoint[] = ['payment', 'checkoutPayment'];

/** Card data: the shopper enters it on the method's own page, never in this request. */
const CARD_DATA_PREFIXES = ['card.', 'tokenAccount.', 'walletA.', 'walletB.', 'walletC.'] as const;
const CARD_DATA_CODE = '200.100.404';

/**
 * The asynchronous brand a payment redirects with, or undefined. A virtual account sent with the
 * brand (PAYPAL with virtualAccount.accountId) is an account the merchant already holds and is
 * paid at once, as before, so that request is no redirect.
 */
export function redirectBrand(context: RuleContext): AsynchronousBrand | undefined {
  if (!REDIRECT_PAYMENTS.includes(context.endpoint) || context.hasAnyUnder('virtualAccount.')) return undefined;
  const named = context.value('paymentBrand');
  return named === undefined ? undefined : asynchronousBrand(named);
}

/**
 * The missing-value code of the parameter's row on this endpoint; undefined when the endpoint does
 * not admit it (the widget's post: customer and billing data come with the checkout instead).
 */
function missingCode(endpoint: Endpoint, name: string): string | undefined {
  return endpointCatalogue(endpoint).lookup.resolve(name)?.compiled.row.missingCode;
}

function missingFields(context: RuleContext, entry: AsynchronousBrand): RuleViolation[] {
  // The checkout carries the shopper's return address; a server-to-server payment must name it.
  const names = context.endpoint === 'payment' ? ['shopperResultUrl', ...entry.required] : entry.required;
  const found: RuleViolation[] = [];
  for (const name of names) {
    const code = missingCode(context.endpoint, name);
    if (code !== undefined && !context.has(name)) found.push(violation(name, code, `is required for ${entry.brand}`));
  }
  return found;
}

function cardData(context: RuleContext, entry: AsynchronousBrand): RuleViolation[] {
  for (const prefix of CARD_DATA_PREFIXES) {
    const first = context.fieldsUnder(prefix)[0];
    if (first) return [violation(first.name, CARD_DATA_CODE, `must not be sent with ${entry.brand}: the shopper pays on the method's own page`)];
  }
  return [];
}

/** Every code the rule can give, from the table: the documentation cannot drift from it. */
function documentedCodes(): string[] {
  const names = ['shopperResultUrl', ...ASYNCHRONOUS_BRANDS.flatMap((entry) => entry.required)];
  const codes = names.map((name) => missingCode('payment', name) ?? DEFAULT_CODE);
  return [...new Set([...codes, CARD_DATA_CODE])];
}

export const asynchronousBrandData: ConditionalRule = {
  id: 'asynchronousBrandData',
  description:
    `A payment with an asynchronous paymentBrand (${ASYNCHRONOUS_BRANDS.map((entry) => entry.brand).join(', ')}) carries shopperResultUrl (server-to-server) and what the method needs (bankAccount.country, customer names …), and no card data (card.*, tokenAccount.*, walletX.*). A virtual account sent with the brand is paid at once instead.`,
  codes: documentedCodes(),
  check(context) {
    const entry = redirectBrand(context);
    return entry === undefined ? [] : [...missingFields(context, entry), ...cardData(context, entry)];
  },
};
