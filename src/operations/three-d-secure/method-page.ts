import { CHALLENGE_START_PATH } from '../../connectors/emv3ds-server/server.js';
import { encodeMethodData, METHOD_NOTIFICATION_PATH, METHOD_PAGE_PATH } from '../../connectors/emv3ds-server/method.js';
import { findRedirect } from '../../storage/repositories/shopper-redirects.js';
import type { PaymentDeps } from '../deps.js';
import { endOf, shopUrlOf, type RedirectEnd } from '../redirects/complete-redirect.js';
import { protocolChallengeOf } from '../redirects/open-redirect.js';
import { methodOf } from './method-open.js';

/**
 * GET /v1/threeDSecure/method/{id}: the gateway's 3DS Method page (http/three-ds-method-page.ts
 * renders it). Its hidden iframe posts threeDSMethodData to the ACS's threeDSMethodURL; its
 * script goes on (POST …/{id}/continue) once the ACS's notification has reached the gateway in
 * that iframe, or after the method's timeout. A method already sent on to a challenge leads there
 * (a reload, the back button); anything else ended gets the ended page.
 */
export type MethodPage =
  | {
      readonly kind: 'page';
      readonly methodUrl: string;
      readonly methodData: string;
      readonly continuePath: string;
      readonly timeoutMs: number;
      readonly locale: string | null;
      /** A widget payment's result page's origin: its overlay may frame the page; undefined: nobody. */
      readonly framingOrigin?: string | undefined;
    }
  | { readonly kind: 'challenge'; readonly location: string }
  | { readonly kind: 'ended'; readonly reason: RedirectEnd; readonly locale: string | null; readonly shopUrl?: string | undefined };

export async function methodPage(deps: Pick<PaymentDeps, 'storage' | 'clock'>, redirectId: string): Promise<MethodPage> {
  const redirect = await findRedirect(deps.storage, redirectId);
  const method = redirect ? methodOf(redirect.resume) : undefined;
  if (!redirect || !method) return { kind: 'ended', reason: 'not-found', locale: redirect?.locale ?? null };
  const ended = endOf(redirect, deps.clock.now());
  if (ended) return { kind: 'ended', reason: ended, locale: redirect.locale, shopUrl: shopUrlOf(redirect) };
  if (method.state === 'sent') {
    return protocolChallengeOf(redirect.resume)
      ? { kind: 'challenge', location: `${CHALLENGE_START_PATH}/${redirect.id}` }
      : { kind: 'ended', reason: 'completed', locale: redirect.locale, shopUrl: shopUrlOf(redirect) };
  }
  const transId = String(redirect.resume['threeDSServerTransID']);
  // The ACS's page posts back from the shopper's browser: to the gateway as that browser reached it.
  const notificationUrl = `${method.query.gatewayBaseUrl ?? ''}${METHOD_NOTIFICATION_PATH}`;
  return {
    kind: 'page',
    methodUrl: method.threeDSMethodURL,
    methodData: encodeMethodData(transId, notificationUrl),
    continuePath: `${METHOD_PAGE_PATH}/${redirect.id}/continue`,
    timeoutMs: method.timeoutMs,
    locale: redirect.locale,
    framingOrigin: typeof redirect.resume['checkoutId'] === 'string' ? new URL(redirect.shopperResultUrl).origin : undefined,
  };
}
