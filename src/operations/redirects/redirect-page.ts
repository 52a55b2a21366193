import { asynchronousBrand } from '../../domain/payment-brands.js';
import { findRedirect, type RedirectPurpose } from '../../storage/repositories/shopper-redirects.js';
import { findAuthenticationById } from '../../storage/repositories/three-d-secure-authentications.js';
import { findTransactionById } from '../../storage/repositories/transactions.js';
import type { PaymentDeps } from '../deps.js';
import { endOf, shopUrlOf, type RedirectEnd } from './complete-redirect.js';
import { protocolChallengeOf } from './open-redirect.js';
import { methodOf } from '../three-d-secure/method-open.js';

/** What a simulated provider or ACS page shows of its payment: never more than the merchant's own answer shows. */
export type RedirectPage =
  | {
      readonly kind: 'page';
      readonly purpose: RedirectPurpose;
      readonly locale: string | null;
      readonly merchantName: string;
      readonly brandName: string;
      readonly amount: string;
      readonly currency: string;
      readonly cardLast4: string;
      /** Where the shopper is sent after the choice: the page's form may lead there (CSP form-action). */
      readonly resultOrigin: string;
      /**
       * The only page that may frame this one: the origin of the checkout's shopperResultUrl, for
       * a widget payment (its overlay, docs/widget.md); undefined (no framing) for any other.
       */
      readonly framingOrigin?: string | undefined;
    }
  | { readonly kind: 'ended'; readonly reason: RedirectEnd; readonly locale: string | null; readonly shopUrl?: string | undefined };

/** The page of an open redirect; a link of another kind, a used or an expired one says so. */
export async function redirectPage(deps: Pick<PaymentDeps, 'storage' | 'clock' | 'entityNames'>, redirectId: string, purpose: RedirectPurpose): Promise<RedirectPage> {
  const redirect = await findRedirect(deps.storage, redirectId);
  if (redirect && redirect.purpose !== purpose) return { kind: 'ended', reason: 'not-found', locale: null };
  // A real ACS's challenge has no page here: the simulated ACS must not show (nor end) it.
  if (redirect && (protocolChallengeOf(redirect.resume) || methodOf(redirect.resume))) return { kind: 'ended', reason: 'not-found', locale: redirect.locale };
  const ended = endOf(redirect, deps.clock.now());
  if (ended || !redirect) return { kind: 'ended', reason: ended ?? 'not-found', locale: redirect?.locale ?? null, shopUrl: shopUrlOf(redirect) };
  const response = redirect.transactionId
    ? (await findTransactionById(deps.storage, redirect.transactionId))?.response
    : (await findAuthenticationById(deps.storage, redirect.authenticationId!))?.response;
  if (!response) return { kind: 'ended', reason: 'not-found', locale: redirect.locale };
  const brand = String(response['paymentBrand'] ?? '');
  // An ACS shows what the shopper authenticates (threeDSecure.amount …), which the charge may not be.
  const purchase = (redirect.resume as { purchase?: { amount?: unknown; currency?: unknown } }).purchase;
  const card = response['card'] as { last4Digits?: string } | undefined;
  return {
    kind: 'page',
    purpose,
    locale: redirect.locale,
    merchantName: await deps.entityNames.nameOf(redirect.entityId),
    brandName: asynchronousBrand(brand)?.name ?? brand,
    amount: String(purchase?.amount ?? response['amount'] ?? ''),
    currency: String(purchase?.currency ?? response['currency'] ?? ''),
    cardLast4: card?.last4Digits ?? '',
    resultOrigin: new URL(redirect.shopperResultUrl).origin,
    framingOrigin: typeof redirect.resume['checkoutId'] === 'string' ? new URL(redirect.shopperResultUrl).origin : undefined,
  };
}
