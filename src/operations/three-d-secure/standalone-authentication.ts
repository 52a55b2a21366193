import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import type { ChallengeChoice } from '../../connectors/three-d-secure.js';
import { cardBin, cardLast4 } from '../../domain/card.js';
import { formatAmount } from '../../domain/money.js';
import { LIVE_SUCCESS_CODE, paymentAfterChallenge, standaloneCode } from '../../domain/three-d-secure/outcome-codes.js';
import { resultOf } from '../../http/envelope.js';
import { isSuccessCode } from '../../results/catalogue.js';
import { GatewayError } from '../../results/gateway-error.js';
import { endRedirect, insertRedirects, type ShopperRedirect } from '../../storage/repositories/shopper-redirects.js';
import { endAuthentication, findAuthentication, findAuthenticationById, insertAuthentication } from '../../storage/repositories/three-d-secure-authentications.js';
import type { PaymentDeps } from '../deps.js';
import { resolvePaymentMethod } from '../payments/payment-method.js';
import { viewOfStored, type PaymentView } from '../payments/payment-response.js';
import { protocolChallengeOf, protocolResumeOf, purchaseShown, returnUrlOf } from '../redirects/open-redirect.js';
import { protocolChallengeEnd } from './protocol-challenge-end.js';
import { authenticatePayment, threeDSecureBlock } from './authenticate-payment.js';
import { challengeOutcome } from './observe-authentication.js';
import { withoutChallengeStart } from '../../domain/three-d-secure/authentication-request.js';
import { challengeExpiresAt } from '../../domain/three-d-secure/challenge-deadline.js';

const PENDING = '000.200.000';
const ALWAYS = { mode: 'always' } as const;
/** The simulated ACS serves the test system only, whose success code this is. */
const TEST_SYSTEM_SUCCESS = '000.100.110';

export interface StandaloneInput {
  readonly entityId: string;
  readonly request: PaymentRequest;
  readonly echo: Readonly<Record<string, unknown>>;
  readonly gatewayBaseUrl: string;
  readonly locale?: string | undefined;
}

/** The scheme of a card from its BIN: all a finished challenge needs to pick the ECI, so no card is kept. */
function schemeProbe(bin: string): string {
  return bin.padEnd(16, '0');
}

/**
 * POST /v1/threeDSecure: a 3-D Secure authentication without a payment, with the same flows
 * (frictionless, challenge, refusals) and the payment parameters. Required by definition: a card
 * that cannot be authenticated is refused. A later payment passes the result on as an external
 * server's (threeDSecure.eci, verificationId, authenticationStatus, dsTransactionId).
 */
export async function createStandaloneAuthentication(deps: PaymentDeps, input: StandaloneInput): Promise<PaymentView> {
  const { request, entityId } = input;
  const method = resolvePaymentMethod(request);
  if (method.data.kind !== 'card') throw new GatewayError('600.200.100', { parameterErrors: [{ name: 'card.number', value: '', message: 'a 3-D Secure authentication needs a card' }] });
  const card = method.data.card;
  const authentication = await authenticatePayment(deps, {
    entityId,
    request,
    method,
    paymentType: 'PA',
    amountMinor: request.amount!,
    currency: request.currency!,
    requirement: ALWAYS,
    gatewayBaseUrl: input.gatewayBaseUrl,
  });
  const id = deps.ids.id();
  const now = deps.clock.now();
  const body: Record<string, unknown> = {
    id,
    paymentBrand: method.brand,
    amount: formatAmount(request.amount!),
    currency: request.currency!,
    ...input.echo,
    card: { ...(input.echo['card'] as object | undefined), bin: cardBin(card.number), last4Digits: cardLast4(card.number), expiryMonth: card.expiryMonth, expiryYear: card.expiryYear },
  };
  if (authentication.kind === 'challenge') {
    if (!request.shopperResultUrl) throw new GatewayError('100.370.101', { parameterErrors: [{ name: 'shopperResultUrl', value: '', message: 'is required for a challenge' }] });
    const reference = deps.ids.id();
    const start = { gatewayBaseUrl: input.gatewayBaseUrl, reference, ...authentication.ids, challengeWindowSize: request.threeDSecure?.challengeWindowSize, session: authentication.session };
    // The app channel has no browser to redirect: the SDK runs the challenge from the answer's data.
    if (authentication.channel === 'app') body['threeDSecure'] = { ...(body['threeDSecure'] as object | undefined), ...deps.threeDSecure!.appChallenge(start) };
    else body['redirect'] = deps.threeDSecure!.challengeRedirect(start);
    const response = { ...body, result: resultOf(PENDING) };
    await deps.storage.transaction(async (tx) => {
      await insertAuthentication(tx, { id, entityId, status: 'pending', resultCode: PENDING, response, createdAt: now, updatedAt: now });
      await insertRedirects(tx, [{
        id: reference,
        entityId,
        transactionId: null,
        authenticationId: id,
        purpose: 'challenge',
        shopperResultUrl: request.shopperResultUrl!,
        locale: input.locale ?? null,
        resume: { ...authentication.ids, cardPrefix: cardBin(card.number), returnUrl: returnUrlOf(input.gatewayBaseUrl, reference), purchase: purchaseShown(authentication.purchase), ...protocolResumeOf(authentication.session, request.threeDSecure?.challengeWindowSize) },
        sealedMethod: null,
        createdAt: now,
        expiresAt: challengeExpiresAt(now, deps, authentication.session !== undefined),
      }]);
    });
    deps.observe.redirect('opened');
    return viewOfStored(response);
  }
  const code = authentication.kind === 'refuse' ? authentication.code : authentication.kind === 'proceed' && authentication.data ? standaloneCode('frictionless') : '000.400.101';
  const data = authentication.kind === 'refuse' || authentication.kind === 'proceed' ? authentication.data : undefined;
  if (data) body['threeDSecure'] = { ...(body['threeDSecure'] as object | undefined), ...threeDSecureBlock(data, authentication.kind === 'proceed' ? authentication.exemption : undefined) };
  const response = { ...body, result: resultOf(code) };
  await insertAuthentication(deps.storage, { id, entityId, status: isSuccessCode(code) ? 'success' : 'rejected', resultCode: code, response, createdAt: now, updatedAt: now });
  return viewOfStored(response);
}

export async function getStandaloneAuthentication(deps: Pick<PaymentDeps, 'storage'>, entityId: string, id: string): Promise<PaymentView> {
  const found = await findAuthentication(deps.storage, entityId, id);
  if (!found) throw new GatewayError('700.400.580');
  return viewOfStored(found.response);
}

/** The shopper finished (or abandoned) the challenge of a standalone authentication. */
export async function completeStandaloneChallenge(deps: Pick<PaymentDeps, 'storage' | 'clock' | 'threeDSecure'> & Partial<Pick<PaymentDeps, 'observe' | 'system'>>, redirect: ShopperRedirect, choice: ChallengeChoice | 'expired' | 'result'): Promise<void> {
  const found = await findAuthenticationById(deps.storage, redirect.authenticationId!);
  const resume = redirect.resume as { dsTransactionId: string; acsTransactionId: string; cardPrefix: string };
  const now = deps.clock.now();
  const { result: _result, redirect: _redirect, threeDSecure: started, ...body } = found?.response ?? {};
  // The app channel's challenge data ends with the challenge (acsSignedContent, status C).
  const kept = withoutChallengeStart(started as Record<string, unknown> | undefined);
  if (kept) body['threeDSecure'] = kept;
  let code: string;
  const protocol = protocolChallengeOf(redirect.resume);
  if (choice === 'result' && protocol) {
    // A real 3DS server's challenge: the ACS's RReq decides and brings the data (none without one).
    const { end, data, observed } = protocolChallengeEnd(protocol, resume);
    if (data) body['threeDSecure'] = { ...(body['threeDSecure'] as object | undefined), ...threeDSecureBlock(data) };
    code = end.kind === 'refuse' ? end.code : standaloneCode('challenge-success', deps.system === 'live' ? LIVE_SUCCESS_CODE : TEST_SYSTEM_SUCCESS);
    deps.observe?.threeDSecure(observed);
  } else if (choice === 'expired' || choice === 'result' || !deps.threeDSecure) {
    code = '100.390.124';
  } else {
    const data = deps.threeDSecure.authenticationData(schemeProbe(resume.cardPrefix), choice === 'cancel' ? 'N' : choice, resume, true);
    body['threeDSecure'] = { ...(body['threeDSecure'] as object | undefined), ...threeDSecureBlock(data) };
    const end = paymentAfterChallenge(choice, true);
    code = end.kind === 'refuse' ? end.code : standaloneCode('challenge-success', TEST_SYSTEM_SUCCESS);
  }
  await deps.storage.transaction(async (tx) => {
    if (found) await endAuthentication(tx, found.id, { status: isSuccessCode(code) ? 'success' : 'rejected', resultCode: code, response: { ...body, result: resultOf(code) }, at: now });
    if (choice !== 'expired') await endRedirect(tx, redirect.id, 'completed', now);
  });
  if (choice !== 'result') deps.observe?.threeDSecure(challengeOutcome(choice));
}
