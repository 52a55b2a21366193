import { findRegistration } from '../../storage/repositories/registrations.js';
import type { StoredCheckout } from '../../storage/repositories/checkouts.js';
import type { OperationDeps, PaymentDeps } from '../deps.js';
import { hiddenBrandsFor } from '../risk/session-risk.js';
import { storedCards } from './checkout-parameters.js';
import { latestAttemptStatus, loadLiveCheckout } from './load-checkout.js';
import { SHEET_WALLET_BRANDS } from './open-wallet-sheet.js';

export type WidgetState = 'open' | 'pending' | 'paid';

export interface StoredCardOffer {
  readonly id: string;
  readonly brand: string;
  readonly last4Digits?: string;
  readonly expiryMonth?: string;
  readonly expiryYear?: string;
}

/**
 * GET /v1/checkouts/{id}/widget: what the widget shows before the shopper pays. Public (the id is
 * the credential), so it holds nothing a shopper may not see: the amount, whether the checkout is
 * still payable, and the stored cards it offers as brand, last four digits and expiry (no holder
 * name: the page that holds the id is the merchant's, not the shopper's). Also the brands the
 * risk engine hides from this shopper (`hiddenBrands`, docs/risk.md) and the origin of the
 * merchant's own shopperResultUrl (the only page that may frame the gateway's redirect pages,
 * so the widget knows whether its overlay can show them), and the shopper's country
 * (`shopperCountry`: the two-letter code of the billing, else shipping address, and nothing else
 * of it), which the widget's bank-country list preselects and puts first.
 */
export async function widgetSession(deps: PaymentDeps, checkoutId: string, shopperIp?: string): Promise<Record<string, unknown>> {
  const checkout = await loadLiveCheckout(deps, checkoutId);
  const parameters = checkout.parameters;
  const status = await latestAttemptStatus(deps, checkout);
  const state: WidgetState = checkout.state === 'completed' || status === 'success' ? 'paid' : status === 'pending' ? 'pending' : 'open';
  return {
    id: checkout.id,
    purpose: checkout.purpose,
    ...(parameters['amount'] !== undefined ? { amount: displayAmount(parameters['amount']), currency: parameters['currency'] } : {}),
    ...(parameters['paymentType'] !== undefined ? { paymentType: parameters['paymentType'] } : {}),
    state,
    expiresAt: checkout.expiresAt.toISOString(),
    registrations: await storedCardOffers(deps, checkout),
    ...(await sessionOffer(deps, checkout, shopperIp)),
  };
}

async function sessionOffer(deps: PaymentDeps, checkout: StoredCheckout, shopperIp: string | undefined): Promise<Record<string, unknown>> {
  const resultUrl = checkout.parameters['shopperResultUrl'];
  const hidden = checkout.purpose === 'payment' ? await hiddenBrandsFor(deps, { entityId: checkout.entityId, parameters: checkout.parameters, ip: shopperIp }) : [];
  return {
    ...(hidden.length > 0 ? { hiddenBrands: hidden } : {}),
    // The wallets the simulated sheet serves: the test system only (real wallets are not built yet).
    ...(deps.system === 'test' && checkout.purpose === 'payment' ? { wallets: SHEET_WALLET_BRANDS } : {}),
    ...(resultUrl !== undefined && URL.canParse(resultUrl) ? { shopperResultOrigin: new URL(resultUrl).origin } : {}),
    ...shopperCountry(checkout.parameters),
  };
}

/** Where the shopper lives as the merchant told the checkout: billing first (the payer's), else shipping. */
function shopperCountry(parameters: StoredCheckout['parameters']): { shopperCountry?: string } {
  const country = [parameters['billing.country'], parameters['shipping.country']].find((code) => code !== undefined && /^[A-Z]{2}$/.test(code));
  return country ? { shopperCountry: country } : {};
}

/** The amount as the merchant's currency shows it (92.5 → 92.50). */
function displayAmount(amount: string): string {
  const [units, cents = ''] = amount.split('.');
  return `${units}.${cents.padEnd(2, '0')}`;
}

async function storedCardOffers(deps: OperationDeps, checkout: StoredCheckout): Promise<StoredCardOffer[]> {
  const offers: StoredCardOffer[] = [];
  for (const { id } of storedCards(checkout.parameters)) {
    const registration = await findRegistration(deps.storage, checkout.entityId, id);
    if (!registration || registration.status !== 'active') continue;
    const account = registration.account;
    offers.push({
      id,
      brand: registration.paymentBrand ?? 'CARD',
      ...pick(account, ['last4Digits', 'expiryMonth', 'expiryYear']),
    });
  }
  return offers;
}

function pick(source: Readonly<Record<string, string>>, names: readonly (keyof StoredCardOffer)[]): Partial<StoredCardOffer> {
  const picked: Record<string, string> = {};
  for (const name of names) if (source[name] !== undefined) picked[name] = source[name]!;
  return picked;
}
