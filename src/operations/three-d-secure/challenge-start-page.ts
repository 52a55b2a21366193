import type { RedirectInstruction } from '../../connectors/connector.js';
import { challengeRedirectOf } from '../../connectors/emv3ds-server/server.js';
import { findRedirect } from '../../storage/repositories/shopper-redirects.js';
import type { PaymentDeps } from '../deps.js';
import { endOf, shopUrlOf, type RedirectEnd } from '../redirects/complete-redirect.js';
import { protocolChallengeOf } from '../redirects/open-redirect.js';

/**
 * GET /v1/threeDSecure/challenge/{id}: the gateway's page between the payment's redirect and a
 * real ACS (connectors/emv3ds-server/server.ts, CHALLENGE_START_PATH). It posts the CReq and
 * threeDSSessionData to the ACS the ARes named, so the merchant's page and the widget's overlay
 * deal with the gateway's origin only. The form is made again from the redirect's resume (the
 * CReq holds ids and the window size, nothing secret); a redirect that ended, or that is no real
 * ACS's challenge, gets the ended page as every other way back does.
 */
export type ChallengeStartPage =
  | {
      readonly kind: 'form';
      readonly form: RedirectInstruction;
      readonly locale: string | null;
      /** The only page that may frame this one: a widget payment's result page's origin (its overlay); undefined: none. */
      readonly framingOrigin?: string | undefined;
    }
  | { readonly kind: 'ended'; readonly reason: RedirectEnd; readonly locale: string | null; readonly shopUrl?: string | undefined };

export async function challengeStartPage(deps: Pick<PaymentDeps, 'storage' | 'clock'>, redirectId: string): Promise<ChallengeStartPage> {
  const redirect = await findRedirect(deps.storage, redirectId);
  const challenge = redirect ? protocolChallengeOf(redirect.resume) : undefined;
  // An app challenge runs in the SDK: no browser page posts its CReq.
  if (!redirect || !challenge || challenge.channel === 'app') return { kind: 'ended', reason: 'not-found', locale: redirect?.locale ?? null };
  const ended = endOf(redirect, deps.clock.now());
  if (ended) return { kind: 'ended', reason: ended, locale: redirect.locale, shopUrl: shopUrlOf(redirect) };
  const ids = redirect.resume as { acsTransactionId?: unknown; dsTransactionId?: unknown };
  const form = challengeRedirectOf({
    gatewayBaseUrl: '',
    reference: redirect.id,
    dsTransactionId: String(ids.dsTransactionId),
    acsTransactionId: String(ids.acsTransactionId),
    challengeWindowSize: challenge.challengeWindowSize,
    session: { threeDSServerTransID: challenge.threeDSServerTransID, acsTransID: String(ids.acsTransactionId), dsTransID: String(ids.dsTransactionId), messageVersion: challenge.messageVersion, acsURL: challenge.acsURL },
  });
  return {
    kind: 'form',
    form,
    locale: redirect.locale,
    framingOrigin: typeof redirect.resume['checkoutId'] === 'string' ? new URL(redirect.shopperResultUrl).origin : undefined,
  };
}
