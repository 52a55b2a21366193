import type { DirectoryQuery } from '../../connectors/three-d-secure.js';
import { METHOD_PAGE_PATH } from '../../connectors/emv3ds-server/method.js';
import type { RedirectInstruction } from '../../connectors/connector.js';
import type { AuthenticatedAmount } from '../../domain/three-d-secure/authentication-request.js';
import type { PaymentDeps } from '../deps.js';
import { purchaseShown, sealCardFor, threeDSecureRedirectRow, type ChallengeInput, type ChallengeResume, type OpenedChallenge } from '../redirects/open-redirect.js';
import type { MethodRouting, PaymentAuthentication } from './authenticate-payment.js';

/**
 * The 3DS Method's redirect (docs/three-d-secure.md, "The 3DS Method"): a card whose ACS has a
 * threeDSMethodURL sends the shopper to the gateway's method page before any AReq. The row is a
 * challenge's: the card sealed for this redirect only, what the payment needs afterwards, and
 * `method`, what the AReq after the method needs (the directory query without the card, the
 * route) and the method's state: waiting → notified (the ACS's notification) → sent (the AReq
 * went, threeDSCompInd Y or N). Each step is one conditional UPDATE (shopper-redirects.ts), so a
 * late notification and the page's continue cannot both send an AReq.
 */

export type MethodState = 'waiting' | 'notified' | 'sent';

/** The directory query as the row keeps it: JSON, so the purchase amount is a string. */
export type StoredQuery = Omit<DirectoryQuery, 'pan' | 'cardExpiry' | 'purchase' | 'methodPage' | 'methodDone'> & {
  readonly purchase?: { readonly amountMinor: string; readonly currency: string; readonly source: AuthenticatedAmount['source'] } | undefined;
};

export interface MethodResume {
  readonly state: MethodState;
  readonly threeDSMethodURL: string;
  readonly timeoutMs: number;
  readonly query: StoredQuery;
  readonly routing: MethodRouting;
  /** When the ACS's notification came (ISO 8601). */
  readonly notifiedAt?: string | undefined;
  /** The AReq's threeDSCompInd, once sent. */
  readonly completed?: 'Y' | 'N' | undefined;
}

/** The redirect's resume while (and after) it runs the method. */
export type MethodRedirectResume = Omit<ChallengeResume, 'dsTransactionId' | 'acsTransactionId'> & {
  readonly threeDSServerTransID: string;
  readonly method: MethodResume;
};

/** The redirect's method, or undefined for one that runs none. */
export function methodOf(resume: Readonly<Record<string, unknown>>): MethodResume | undefined {
  const method = resume['method'];
  return typeof method === 'object' && method !== null && typeof resume['threeDSServerTransID'] === 'string' ? method as MethodResume : undefined;
}

/** The query of the AReq after the method, with the card opened from the vault. */
export function queryAfterMethod(stored: StoredQuery, card: { readonly number: string; readonly expiryMonth: string; readonly expiryYear: string }, done: NonNullable<DirectoryQuery['methodDone']>): DirectoryQuery {
  const { purchase, ...rest } = stored;
  return {
    ...rest,
    pan: card.number,
    cardExpiry: { month: card.expiryMonth, year: card.expiryYear },
    ...(purchase ? { purchase: { ...purchase, amountMinor: BigInt(purchase.amountMinor) } } : {}),
    methodDone: done,
  };
}

export function methodPageUrl(gatewayBaseUrl: string, redirectId: string): string {
  return `${gatewayBaseUrl}${METHOD_PAGE_PATH}/${redirectId}`;
}

type MethodInput = Omit<ChallengeInput, 'authentication'> & { readonly authentication: Extract<PaymentAuthentication, { kind: 'method' }> };

/** The payment's pending answer leads to the method page; the row keeps the sealed card and the method. */
export async function openMethod(deps: PaymentDeps, input: MethodInput): Promise<OpenedChallenge> {
  const { connectorRequest, authentication } = input;
  const reference = connectorRequest.shopperReturn.reference;
  const card = input.method.data.kind === 'card' ? input.method.data.card : undefined;
  if (!card) throw new Error('a 3DS Method needs a card');
  const sealedMethod = await sealCardFor(deps, reference, card);
  const { method: _method, credentials: _credentials, shopperReturn: _return, amountMinor, ...rest } = connectorRequest;
  const { purchase, ...query } = authentication.query;
  const resume: MethodRedirectResume = {
    required: authentication.required,
    challengeIndicator: authentication.exemption.challengeIndicator,
    exemptionFlag: authentication.exemption.exemptionFlag,
    notificationUrl: input.request.notificationUrl,
    purchase: purchaseShown(authentication.purchase),
    connectorRequest: { ...rest, amountMinor: amountMinor.toString() },
    threeDSServerTransID: authentication.method.threeDSServerTransID.toLowerCase(),
    ...(input.request.threeDSecure?.challengeWindowSize !== undefined ? { challengeWindowSize: input.request.threeDSecure.challengeWindowSize } : {}),
    method: {
      state: 'waiting',
      threeDSMethodURL: authentication.method.threeDSMethodURL,
      timeoutMs: authentication.method.timeoutMs,
      query: { ...query, ...(purchase ? { purchase: { ...purchase, amountMinor: purchase.amountMinor.toString() } } : {}) },
      routing: authentication.routing,
    },
  };
  const now = deps.clock.now();
  const instruction: RedirectInstruction = { url: methodPageUrl(connectorRequest.shopperReturn.gatewayBaseUrl, reference), method: 'GET', parameters: [] };
  return {
    instruction,
    row: threeDSecureRedirectRow(input, resume, sealedMethod, now, new Date(now.getTime() + deps.redirectExpiryMs)),
  };
}
