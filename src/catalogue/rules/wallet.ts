import type { Endpoint } from '../types.js';
import { violation, type ConditionalRule, type RuleViolation } from './types.js';

/** Mobile wallet rules: an encrypted token, or decrypted card data with its authentication. */

export const WALLETS = ['walletA', 'walletB', 'walletC'] as const;

/** Where the decrypted variant is documented (docs/api.md); every message of the rule points there. */
export const DECRYPTED_WALLET_DOCS = 'docs/api.md#decrypted-wallet-data';

/**
 * The fields decrypted wallet data consists of (specification, "Mobile wallet structures", variant
 * 2), each with the code of its absence: the card data, and the wallet's cryptogram (CAVV) and
 * ECI, which authenticate the payment in place of the shopper's CVV.
 */
export const DECRYPTED_WALLET_FIELDS: readonly (readonly [name: string, missingCode: string])[] = [
  ['card.number', '100.100.100'],
  ['card.expiryMonth', '100.100.200'],
  ['card.expiryYear', '100.100.300'],
  ['threeDSecure.eci', '100.370.121'],
  ['threeDSecure.verificationId', '100.370.125'],
];

/**
 * Endpoints whose catalogue admits threeDSecure.*: there the cryptogram and ECI are required too.
 * The widget's post (checkoutPayment) cannot carry them, so it is held to the card data.
 */
const THREE_D_SECURE_ENDPOINTS: readonly Endpoint[] = ['payment', 'registration'];

function missingDecryptedFields(endpoint: Endpoint, wallet: string, has: (name: string) => boolean): RuleViolation[] {
  const needed = DECRYPTED_WALLET_FIELDS.filter(([name]) => !name.startsWith('threeDSecure.') || THREE_D_SECURE_ENDPOINTS.includes(endpoint));
  return needed
    .filter(([name]) => !has(name))
    .map(([name, code]) => violation(name, code, `is required with ${wallet}.source: decrypted wallet data (${DECRYPTED_WALLET_DOCS})`));
}

export const walletDataComplete: ConditionalRule = {
  id: 'walletDataComplete',
  description:
    'Wallet data is either an encrypted walletX.paymentToken, or decrypted data marked by walletX.source: card.number, card.expiryMonth, card.expiryYear, threeDSecure.eci and threeDSecure.verificationId (the last two where threeDSecure.* is admitted), each one missing named with its own code.',
  codes: ['200.100.602', ...new Set(DECRYPTED_WALLET_FIELDS.map(([, code]) => code))],
  check(context) {
    const found: RuleViolation[] = [];
    for (const wallet of WALLETS) {
      if (!context.hasAnyUnder(`${wallet}.`)) continue;
      const source = context.has(`${wallet}.source`);
      if (!source && !context.has(`${wallet}.paymentToken`)) {
        found.push(violation(`${wallet}.paymentToken`, '200.100.602', `is required unless ${wallet}.source marks decrypted card data (${DECRYPTED_WALLET_DOCS})`));
      } else if (source) {
        found.push(...missingDecryptedFields(context.endpoint, wallet, (name) => context.has(name)));
      }
    }
    return found;
  },
};
