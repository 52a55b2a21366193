import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import type { CardDetails, PaymentConnectorRequest, RedirectInstruction, ShopperReturn } from '../../connectors/connector.js';
import type { SealedSecret } from '../../domain/vault/index.js';
import type { AppChallenge, ChallengeSession } from '../../connectors/three-d-secure.js';
import { formatAmount } from '../../domain/money.js';
import type { AuthenticatedAmount } from '../../domain/three-d-secure/authentication-request.js';
import { challengeExpiresAt } from '../../domain/three-d-secure/challenge-deadline.js';
import type { InitialPaymentType } from '../../domain/transaction.js';
import type { NewRedirect } from '../../storage/repositories/shopper-redirects.js';
import type { PaymentDeps } from '../deps.js';
import type { ResolvedPaymentMethod } from '../payments/payment-method.js';
import type { PaymentAuthentication } from '../three-d-secure/authenticate-payment.js';

/** Where the shopper comes back to the gateway from a redirect (routes/redirects.ts). */
export const RETURN_PATH = '/v1/redirects';

export function returnUrlOf(gatewayBaseUrl: string, reference: string): string {
  return `${gatewayBaseUrl}${RETURN_PATH}/${reference}/return`;
}

/** The vault context a challenged payment's card is sealed under: it opens for this redirect only. */
export function sealedMethodContext(redirectId: string): string {
  return `redirect:${redirectId}`;
}

/** A provider's redirect: the gateway keeps no card, only where the shopper goes back to. */
export function providerRedirectRow(
  deps: Pick<PaymentDeps, 'clock' | 'redirectExpiryMs'>,
  input: { readonly transactionId: string; readonly entityId: string; readonly shopperReturn: ShopperReturn; readonly shopperResultUrl: string; readonly notificationUrl?: string | undefined },
): NewRedirect {
  const now = deps.clock.now();
  return {
    id: input.shopperReturn.reference,
    entityId: input.entityId,
    transactionId: input.transactionId,
    authenticationId: null,
    purpose: 'provider',
    shopperResultUrl: input.shopperResultUrl,
    locale: input.shopperReturn.locale ?? null,
    // The payment's UPDATED notification goes where its first one went.
    resume: input.notificationUrl ? { notificationUrl: input.notificationUrl } : {},
    sealedMethod: null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + deps.redirectExpiryMs),
  };
}

export interface ChallengeInput {
  readonly transactionId: string;
  readonly entityId: string;
  readonly request: PaymentRequest;
  readonly method: ResolvedPaymentMethod;
  readonly paymentType: InitialPaymentType;
  readonly authentication: Extract<PaymentAuthentication, { kind: 'challenge' }>;
  /** The request the connector gets once the shopper is authenticated (its shopperReturn names the redirect). */
  readonly connectorRequest: PaymentConnectorRequest & { readonly shopperReturn: ShopperReturn };
}

/** What the payment needs after the challenge, in the redirect's row: no card number, no credentials. */
export interface ChallengeResume extends Partial<ProtocolChallengeResume> {
  readonly required: boolean;
  readonly dsTransactionId: string;
  readonly acsTransactionId: string;
  readonly challengeIndicator?: string | undefined;
  readonly exemptionFlag?: string | undefined;
  readonly notificationUrl?: string | undefined;
  /** What the ACS shows the shopper to confirm: the authenticated amount (wire form) and currency. */
  readonly purchase?: PurchaseShown | undefined;
  /** The connector request without method, credentials and shopperReturn; amountMinor as a string. */
  readonly connectorRequest: Record<string, unknown>;
}

/**
 * A real 3DS server's challenge, in the redirect's resume beside the ids (migration 063 indexes
 * threeDSServerTransID: the ACS's RReq names the challenge by it). `challengeResult` is the RReq's,
 * written once (challenge-result.ts) and read when the browser's final CRes completes the redirect.
 */
export interface ProtocolChallengeResume {
  readonly threeDSServerTransID: string;
  readonly acsURL: string;
  readonly messageVersion: string;
  /** The CReq's challengeWindowSize (the request's threeDSecure.challengeWindowSize), for the gateway's page that posts it. */
  readonly challengeWindowSize?: string | undefined;
  readonly challengeResult?: ChallengeResult | undefined;
  /**
   * 'app': the mobile SDK runs the challenge (deviceChannel 01): no browser comes back with a
   * CRes, so the ACS's RReq ends it (challenge-result.ts), and the gateway's challenge page is
   * not for it. Absent: the browser channel.
   */
  readonly channel?: 'app' | undefined;
}

/** What the ACS's RReq said; no card data, only the result the acquirer needs. */
export interface ChallengeResult {
  readonly transStatus: 'Y' | 'A' | 'N' | 'U' | 'R';
  readonly transStatusReason?: string | undefined;
  readonly eci?: string | undefined;
  readonly authenticationValue?: string | undefined;
  readonly challengeCancel?: string | undefined;
  readonly receivedAt: string;
}

/** The resume fields of a real 3DS server's challenge; none for the simulator's. */
export function protocolResumeOf(session: ChallengeSession | undefined, challengeWindowSize?: string | undefined): Partial<ProtocolChallengeResume> {
  return session
    ? {
        threeDSServerTransID: session.threeDSServerTransID.toLowerCase(), acsURL: session.acsURL, messageVersion: session.messageVersion,
        ...(session.app ? { channel: 'app' as const } : challengeWindowSize !== undefined ? { challengeWindowSize } : {}),
      }
    : {};
}

/** The redirect's real 3DS server challenge, or undefined for a simulated one. */
export function protocolChallengeOf(resume: Readonly<Record<string, unknown>>): ProtocolChallengeResume | undefined {
  // While the 3DS Method runs the row has the transaction id but no ACS yet: no challenge (method-open.ts).
  return typeof resume['threeDSServerTransID'] === 'string' && typeof resume['acsURL'] === 'string' ? (resume as unknown as ProtocolChallengeResume) : undefined;
}

export interface PurchaseShown {
  readonly amount: string;
  readonly currency: string;
}

export function purchaseShown(purchase: AuthenticatedAmount): PurchaseShown {
  return { amount: formatAmount(purchase.amountMinor), currency: purchase.currency };
}

/** A challenge as the payment's first answer carries it: a browser redirect, or the app channel's SDK data. */
export interface OpenedChallenge {
  readonly instruction?: RedirectInstruction | undefined;
  readonly appChallenge?: AppChallenge | undefined;
  readonly row: NewRedirect;
}

/** The card (and CVV) sealed by the vault under a context only this redirect opens. */
export function sealCardFor(deps: Pick<PaymentDeps, 'vault'>, reference: string, card: CardDetails): Promise<SealedSecret> {
  const secret: Record<string, string> = { number: card.number, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear };
  if (card.cvv) secret['cvv'] = card.cvv;
  if (card.holder) secret['holder'] = card.holder;
  if (card.numberType) secret['numberType'] = card.numberType;
  return deps.vault.seal(sealedMethodContext(reference), secret);
}

/**
 * A 3-D Secure challenge: the card is sealed by the vault under a context only this redirect
 * opens (the acquirer needs it once the shopper is authenticated), and the shopper is sent to the
 * ACS. The card and CVV are wiped when the redirect ends, whichever way.
 */
export async function openChallenge(deps: PaymentDeps, input: ChallengeInput): Promise<OpenedChallenge> {
  const { connectorRequest, authentication } = input;
  const reference = connectorRequest.shopperReturn.reference;
  const card = input.method.data.kind === 'card' ? input.method.data.card : undefined;
  if (!card || !deps.threeDSecure) throw new Error('a challenge needs a card and a 3-D Secure server');
  const sealedMethod = await sealCardFor(deps, reference, card);
  const { method: _method, credentials: _credentials, shopperReturn: _return, amountMinor, ...rest } = connectorRequest;
  const resume: ChallengeResume = {
    required: authentication.required,
    ...authentication.ids,
    challengeIndicator: authentication.exemption.challengeIndicator,
    exemptionFlag: authentication.exemption.exemptionFlag,
    notificationUrl: input.request.notificationUrl,
    purchase: purchaseShown(authentication.purchase),
    connectorRequest: { ...rest, amountMinor: amountMinor.toString() },
    ...protocolResumeOf(authentication.session, input.request.threeDSecure?.challengeWindowSize),
  };
  const now = deps.clock.now();
  const start = {
    gatewayBaseUrl: connectorRequest.shopperReturn.gatewayBaseUrl,
    reference,
    ...authentication.ids,
    challengeWindowSize: input.request.threeDSecure?.challengeWindowSize,
    session: authentication.session,
  };
  // The app channel has no browser to redirect: the SDK runs the challenge from the answer's data.
  const shown = authentication.channel === 'app' ? { appChallenge: deps.threeDSecure.appChallenge(start) } : { instruction: deps.threeDSecure.challengeRedirect(start) };
  return {
    ...shown,
    row: threeDSecureRedirectRow(input, resume, sealedMethod, now, challengeExpiresAt(now, deps, authentication.session !== undefined)),
  };
}

/**
 * The row of a 3-D Secure redirect (a challenge, or a 3DS Method that may become one): the card
 * sealed for it and what resumes the payment (no card number, no credentials), as plain JSON.
 */
export function threeDSecureRedirectRow(
  input: Pick<ChallengeInput, 'entityId' | 'transactionId' | 'request' | 'connectorRequest'>,
  resume: object,
  sealedMethod: SealedSecret,
  now: Date,
  expiresAt: Date,
): NewRedirect {
  return {
    id: input.connectorRequest.shopperReturn.reference,
    entityId: input.entityId,
    transactionId: input.transactionId,
    authenticationId: null,
    purpose: 'challenge',
    shopperResultUrl: input.request.shopperResultUrl!,
    locale: input.connectorRequest.shopperReturn.locale ?? null,
    resume: JSON.parse(JSON.stringify(resume)) as Record<string, unknown>,
    sealedMethod,
    createdAt: now,
    expiresAt,
  };
}
