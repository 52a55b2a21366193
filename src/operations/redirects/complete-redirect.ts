import { INITIAL_OPERATIONS, type CardDetails, type NormalizedOutcome, type PaymentConnectorRequest } from '../../connectors/connector.js';
import type { AuthenticationData, ChallengeChoice } from '../../connectors/three-d-secure.js';
import { AUTHENTICATION_CODES, paymentAfterChallenge, type AuthenticationEnd } from '../../domain/three-d-secure/outcome-codes.js';
import type { InitialPaymentType } from '../../domain/transaction.js';
import { resultOf } from '../../http/envelope.js';
import { claimRedirectGrouped, endRedirect, lookUpRedirect, type RedirectPurpose, type ShopperRedirect } from '../../storage/repositories/shopper-redirects.js';
import { lookUpTransactionById, type StoredTransaction } from '../../storage/repositories/transactions.js';
import type { PaymentDeps } from '../deps.js';
import { serialisedView, viewOfStored } from '../payments/payment-response.js';
import { settledPayment, writeSettledPayments } from '../payments/payment-writes.js';
import { owesRegistrations, settleRegistrations } from '../payments/settle-registrations.js';
import { connectorThreeDSecure, threeDSecureBlock } from '../three-d-secure/authenticate-payment.js';
import { withoutChallengeStart } from '../../domain/three-d-secure/authentication-request.js';
import { completeStandaloneChallenge } from '../three-d-secure/standalone-authentication.js';
import { statusRequestOf } from '../pending/check-pending.js';
import { checkoutResourcePath } from '../../domain/checkouts/checkout-id.js';
import { protocolChallengeOf, sealedMethodContext, type ChallengeResume, type ProtocolChallengeResume } from './open-redirect.js';
import { protocolChallengeEnd } from '../three-d-secure/protocol-challenge-end.js';
import { methodOf } from '../three-d-secure/method-open.js';
import { observeLaterOutcome } from '../payments/observe-payment.js';
import { challengeOutcome } from '../three-d-secure/observe-authentication.js';

/** The choices each kind of redirect accepts (the simulated pages' buttons; docs/simulator.md). */
export const CHOICES: Readonly<Record<RedirectPurpose, readonly string[]>> = {
  provider: ['approve', 'decline', 'cancel'],
  challenge: ['Y', 'N', 'U', 'R', 'cancel'],
};

export type RedirectEnd = 'completed' | 'expired' | 'not-found';

/** What the completion decided, for the request's log line: the payment, its checkout and its result. */
export interface CompletedPayment {
  readonly transactionId: string;
  readonly checkoutId?: string | undefined;
  /** Absent while the payment stays pending (a provider that has not decided). */
  readonly code?: string | undefined;
}

export type CompletionResult =
  /** The shopper goes back to the merchant (303). */
  | { readonly kind: 'return'; readonly location: string; readonly payment?: CompletedPayment | undefined }
  /** The link cannot be used (any more): the page says why. */
  | { readonly kind: 'ended'; readonly reason: RedirectEnd; readonly locale: string | null; readonly shopUrl?: string | undefined };

/** shopperResultUrl with id and resourcePath added, as OPPWA sends the shopper back. */
export function shopperResultLocation(shopperResultUrl: string, id: string, resourcePath: string): string {
  const url = new URL(shopperResultUrl);
  url.searchParams.set('id', id);
  url.searchParams.set('resourcePath', resourcePath);
  return url.toString();
}

/**
 * What the shopper's browser hands the merchant after a redirect: the checkout's id and status
 * path for a widget payment, else the payment's (or the standalone authentication's).
 */
export function resultReferenceOf(redirect: ShopperRedirect): { readonly id: string; readonly resourcePath: string } {
  const checkoutId = redirect.resume['checkoutId'];
  if (typeof checkoutId === 'string') return { id: checkoutId, resourcePath: checkoutResourcePath(checkoutId, 'payment') };
  if (redirect.transactionId) return { id: redirect.transactionId, resourcePath: `/v1/payments/${redirect.transactionId}` };
  return { id: redirect.authenticationId!, resourcePath: `/v1/threeDSecure/${redirect.authenticationId}` };
}

export function resultLocationOf(redirect: ShopperRedirect): string {
  const { id, resourcePath } = resultReferenceOf(redirect);
  return shopperResultLocation(redirect.shopperResultUrl, id, resourcePath);
}

/** The merchant's result page of a redirect's payment: where "back to the shop" leads from a used or expired link. */
export function shopUrlOf(redirect: ShopperRedirect | undefined): string | undefined {
  if (!redirect || !/^https?:/i.test(redirect.shopperResultUrl)) return undefined;
  return resultLocationOf(redirect);
}

/** Why a redirect link no longer works, for the page the shopper sees. */
export function endOf(redirect: ShopperRedirect | undefined, now: Date): RedirectEnd | null {
  if (!redirect) return 'not-found';
  if (redirect.state === 'expired' || (redirect.state === 'open' && redirect.expiresAt <= now)) return 'expired';
  if (redirect.state !== 'open') return 'completed';
  return null;
}

/**
 * The shopper came back (a simulated page's button, or a provider's return): the redirect is
 * taken with one conditional UPDATE, so a double submit or the expiry job racing it cannot end
 * the payment twice. Then the connector decides (a provider's `complete`; after a challenge, the
 * authorisation itself), and the outcome, its PAYMENT notification (UPDATED) and the redirect's
 * end are written in one transaction. The shopper is sent to shopperResultUrl whatever the
 * outcome: the merchant's server reads it from the payment.
 */
export async function completeRedirect(
  deps: PaymentDeps,
  input: { readonly redirectId: string; readonly returned: Readonly<Record<string, string>>; readonly purpose?: RedirectPurpose | undefined; readonly via?: 'notification' | undefined },
): Promise<CompletionResult> {
  const now = deps.clock.now();
  const found = await lookUpRedirect(deps.storage, input.redirectId);
  // A provider's link on the ACS page (or the reverse) names no redirect there.
  if (found && input.purpose !== undefined && found.purpose !== input.purpose) return { kind: 'ended', reason: 'not-found', locale: null };
  // A real 3DS server's challenge ends only by the final CRes at its notificationURL (and its RReq
  // decides); no other way back, and no simulated page's choice, may end it, nor may the
  // notificationURL end anything else.
  const protocol = found ? protocolChallengeOf(found.resume) !== undefined || methodOf(found.resume) !== undefined : false;
  if (found && protocol !== (input.via === 'notification')) return { kind: 'ended', reason: 'not-found', locale: found.locale };
  // A simulated challenge ends only with one of the ACS page's choices (the simulated ACS is the gateway's own).
  if (found?.purpose === 'challenge' && !protocol && !CHOICES.challenge.includes(input.returned['outcome'] ?? '')) return { kind: 'ended', reason: 'not-found', locale: found.locale };
  const ended = endOf(found, now);
  if (ended) return { kind: 'ended', reason: ended, locale: found?.locale ?? null, shopUrl: shopUrlOf(found) };
  const choice = protocol ? null : input.returned['outcome'] ?? null;
  const redirect = await claimRedirectGrouped(deps.storage, input.redirectId, choice, now);
  if (!redirect) {
    const after = await lookUpRedirect(deps.storage, input.redirectId);
    return { kind: 'ended', reason: endOf(after, deps.clock.now()) ?? 'completed', locale: after?.locale ?? null, shopUrl: shopUrlOf(after) };
  }
  deps.observe.redirect('completed');
  if (redirect.authenticationId) {
    await completeStandaloneChallenge(deps, redirect, protocol ? 'result' : choice as ChallengeChoice);
    return { kind: 'return', location: resultLocationOf(redirect) };
  }
  const transaction = await lookUpTransactionById(deps.storage, redirect.transactionId!);
  if (!transaction) return { kind: 'return', location: resultLocationOf(redirect) };
  const code = await completePayment(deps, redirect, transaction, input.returned);
  const checkoutId = redirect.resume['checkoutId'];
  const payment = { transactionId: transaction.id, checkoutId: typeof checkoutId === 'string' ? checkoutId : undefined, code };
  return { kind: 'return', location: resultLocationOf(redirect), payment };
}

/** Ends the payment as the shopper's return decides; its result code, or undefined while it stays pending. */
async function completePayment(deps: PaymentDeps, redirect: ShopperRedirect, transaction: StoredTransaction, returned: Readonly<Record<string, string>>): Promise<string | undefined> {
  const protocol = protocolChallengeOf(redirect.resume);
  const decided = protocol
    ? await afterProtocolChallenge(deps, redirect, transaction, protocol)
    : redirect.purpose === 'challenge'
    ? await afterChallenge(deps, redirect, transaction, (returned['outcome'] ?? 'cancel') as ChallengeChoice)
    : { ...(await afterProvider(deps, transaction, returned)), notificationUrl: (redirect.resume as { notificationUrl?: string }).notificationUrl };
  return settleCompletion(deps, redirect, transaction, decided);
}

/**
 * Writes what a taken redirect's end decided: the payment's outcome with its UPDATED notification
 * and the redirect's end, in one transaction; its result code, or undefined while it stays pending.
 */
export async function settleCompletion(deps: PaymentDeps, redirect: ShopperRedirect, transaction: StoredTransaction, decided: Decided): Promise<string | undefined> {
  // Still pending (the provider has not decided): the resolution job asks its status later.
  if (decided.outcome.kind === 'pending') {
    await endRedirect(deps.storage, redirect.id, 'completed', deps.clock.now());
    return undefined;
  }
  const response = completedResponse(transaction.response, decided.outcome, decided.threeDSecure);
  const settled = settledPayment(deps, {
    id: transaction.id,
    entityId: transaction.entityId,
    outcome: decided.outcome,
    view: serialisedView(viewOfStored(response)),
    schemeTransactionId: decided.outcome.schemeTransactionId ?? null,
    notificationUrl: decided.notificationUrl,
    action: 'UPDATED',
  });
  const endsRedirect = { id: redirect.id, at: deps.clock.now() };
  if (owesRegistrations(transaction)) {
    await deps.storage.transaction(async (tx) => {
      await writeSettledPayments(tx, [{ ...settled, endsRedirect }]);
      await settleRegistrations(tx, transaction, decided.outcome, deps.clock.now());
    });
  } else {
    // One statement, shared with the payments settling at the same moment (group commit).
    await deps.writes.settle({ ...settled, endsRedirect });
  }
  observeLaterOutcome(deps.observe, transaction, decided.outcome.code, decided.connectorAsked !== false);
  return decided.outcome.code;
}

export interface Decided {
  readonly outcome: NormalizedOutcome;
  readonly threeDSecure?: Record<string, string> | undefined;
  readonly notificationUrl?: string | undefined;
  /** false: the challenge ended the payment before its connector was asked. */
  readonly connectorAsked?: boolean | undefined;
}

/** A provider's page: its connector's `complete` decides from what the shopper brought back. */
async function afterProvider(deps: PaymentDeps, transaction: StoredTransaction, returned: Readonly<Record<string, string>>): Promise<Decided> {
  const routed = await deps.connectors.forTransaction(transaction);
  if (!routed?.connector.complete) return { outcome: { kind: 'pending', code: '000.200.000', resultDetails: {} } };
  const { connector, credentials } = routed;
  const request = { ...statusRequestOf(transaction, undefined, credentials), returned };
  return { outcome: await deps.connectors.call(connector, 'complete', () => connector.complete!(request), { timeoutMs: deps.connectorTimeoutMs }) };
}

/** After a simulated challenge: the shopper's choice on the ACS page decides, and the simulator makes the data. */
async function afterChallenge(deps: PaymentDeps, redirect: ShopperRedirect, transaction: StoredTransaction, choice: ChallengeChoice): Promise<Decided> {
  const resume = redirect.resume as unknown as ChallengeResume;
  const server = deps.threeDSecure;
  if (!server || !redirect.sealedMethod) return PENDING_DECISION;
  const card = (await deps.vault.open(sealedMethodContext(redirect.id), redirect.sealedMethod)) as unknown as CardDetails;
  const ids = { dsTransactionId: resume.dsTransactionId, acsTransactionId: resume.acsTransactionId };
  const data = server.authenticationData(card.number, choice === 'cancel' ? 'N' : choice, ids, true);
  deps.observe.threeDSecure(challengeOutcome(choice));
  return goOn(deps, transaction, resume, card, paymentAfterChallenge(choice, resume.required), data);
}

/** After a real 3DS server's challenge: the ACS's RReq decides and brings the data (none without an RReq). */
async function afterProtocolChallenge(deps: PaymentDeps, redirect: ShopperRedirect, transaction: StoredTransaction, challenge: ProtocolChallengeResume): Promise<Decided> {
  const resume = redirect.resume as unknown as ChallengeResume;
  const { end, data, observed } = protocolChallengeEnd(challenge, { dsTransactionId: resume.dsTransactionId, acsTransactionId: resume.acsTransactionId });
  // A refusal needs no card: it is not even opened.
  if (end.kind === 'proceed' && !redirect.sealedMethod) return PENDING_DECISION;
  deps.observe.threeDSecure(observed);
  const card = end.kind === 'refuse' ? undefined : (await deps.vault.open(sealedMethodContext(redirect.id), redirect.sealedMethod!)) as unknown as CardDetails;
  return goOn(deps, transaction, resume, card, end, data);
}

const PENDING_DECISION: Decided = { outcome: { kind: 'pending', code: '000.200.000', resultDetails: {} } };

/** A refusal ends the payment; an authentication goes on to the acquirer with the sealed card. */
export async function goOn(deps: PaymentDeps, transaction: StoredTransaction, resume: ChallengeResume, card: CardDetails | undefined, end: AuthenticationEnd, data: AuthenticationData | undefined): Promise<Decided> {
  const exemption = { challengeIndicator: resume.challengeIndicator, exemptionFlag: resume.exemptionFlag };
  const block = data ? threeDSecureBlock(data, exemption) : undefined;
  if (end.kind === 'refuse' || !card) return { outcome: { kind: 'declined', code: end.kind === 'refuse' ? end.code : AUTHENTICATION_CODES.technicalError, resultDetails: {} }, threeDSecure: block, notificationUrl: resume.notificationUrl, connectorAsked: false };
  const pending = PENDING_DECISION;
  const routed = await deps.connectors.forTransaction(transaction);
  if (!routed) return pending;
  const stored = resume.connectorRequest as unknown as Omit<PaymentConnectorRequest, 'amountMinor'> & { readonly amountMinor: string };
  const request: PaymentConnectorRequest = {
    ...stored,
    amountMinor: BigInt(stored.amountMinor),
    method: { kind: 'card', card },
    credentials: routed.credentials,
    ...(end.withLiabilityShift && data ? { threeDSecure: connectorThreeDSecure(data, exemption) } : {}),
  };
  const operation = INITIAL_OPERATIONS[transaction.paymentType as InitialPaymentType];
  const outcome = await deps.connectors.call(routed.connector, operation, () => routed.connector[operation](request), { secretNumbers: [card.number], timeoutMs: deps.connectorTimeoutMs });
  return { outcome, threeDSecure: block, notificationUrl: resume.notificationUrl };
}

/** The stored answer without its redirect, with the outcome's result, details and what the acquirer said of the card. */
export function completedResponse(stored: Record<string, unknown>, outcome: NormalizedOutcome, threeDSecure: Record<string, string> | undefined): Record<string, unknown> {
  const { result: _result, redirect: _redirect, ...body } = stored;
  const details = { ...(body['resultDetails'] as Record<string, string> | undefined), ...outcome.resultDetails };
  const completed: Record<string, unknown> = { ...body };
  // The app channel's challenge data ends with the challenge (threeDSecure.acsSignedContent, status C).
  const started = withoutChallengeStart(body['threeDSecure'] as Record<string, unknown> | undefined);
  if (started) completed['threeDSecure'] = started;
  else delete completed['threeDSecure'];
  if (Object.keys(details).length > 0) completed['resultDetails'] = details;
  if (threeDSecure) completed['threeDSecure'] = { ...started, ...threeDSecure };
  if (outcome.card && body['card']) completed['card'] = { ...(body['card'] as object), ...outcome.card };
  return Object.assign(completed, {
    result: resultOf(outcome.code, {
      ...(outcome.avsResponse ? { avsResponse: outcome.avsResponse } : {}),
      ...(outcome.cvvResponse ? { cvvResponse: outcome.cvvResponse } : {}),
    }),
  });
}
