import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import { INITIAL_OPERATIONS, type NormalizedOutcome, type PaymentConnectorRequest, type RedirectInstruction, type ShopperReturn, type ThreeDSecureData } from '../../connectors/connector.js';
import type { AppChallenge } from '../../connectors/three-d-secure.js';
import type { NewRedirect } from '../../storage/repositories/shopper-redirects.js';
import { authenticatePayment, connectorThreeDSecure, threeDSecureBlock, type PaymentAuthentication, type PaymentAuthenticationInput } from '../three-d-secure/authenticate-payment.js';
import { openMethod } from '../three-d-secure/method-open.js';
import { openChallenge, providerRedirectRow, returnUrlOf, type OpenedChallenge } from '../redirects/open-redirect.js';
import { newShortId } from '../../domain/short-id.js';
import type { InitialPaymentType } from '../../domain/transaction.js';
import { newTransactionState } from '../../domain/transaction.js';
import { GatewayError } from '../../results/gateway-error.js';
import { supportsPaymentType } from '../../domain/lifecycle/policy.js';
import { checkTargetUrl } from '../webhooks/check-url.js';
import type { Queryable } from '../../storage/port.js';
import type { PaymentDeps } from '../deps.js';
import { decidePaymentRisk, prepareRisk, UNCHECKED, type PaymentRisk } from '../risk/evaluate-payment-risk.js';
import { prepareRegistrationFromPayment } from '../registrations/register-from-payment.js';
import { planStandingInstruction, type PlannedStandingInstruction } from '../registrations/standing-instruction-plan.js';
import { settledPayment, writeSettledPayments } from './payment-writes.js';
import { paysIntoMerchantAccount, type MerchantBankAccount } from '../../domain/responses/merchant-bank-account.js';
import { findPayoutBankAccount } from '../../storage/repositories/entity-settings.js';
import { buildPaymentView, serialisedView, storedResponse, type PaymentView, type SerialisedView } from './payment-response.js';
import { callWithFallback } from './call-with-fallback.js';
import { recordOutcome } from './record-outcome.js';
import { resolvePaymentMethod, secretNumbersOf, type ResolvedPaymentMethod } from './payment-method.js';

export interface CreatePaymentInput {
  readonly entityId: string;
  readonly request: PaymentRequest;
  /** The request's structures as the response echoes them. */
  readonly echo: Readonly<Record<string, unknown>>;
  /** The claim of the request's Idempotency-Key: stored on the transaction, where it is unique. */
  readonly idempotencyClaimId?: string | undefined;
  /** The gateway's public base URL as the shopper's browser reaches it: redirects lead back to it. */
  readonly gatewayBaseUrl?: string | undefined;
  /** The shopper's language for the pages of a redirect (the request's Accept-Language). */
  readonly locale?: string | undefined;
  /** The payment's id when the caller chose it first (a checkout claims its attempt by it); else a new one. */
  readonly transactionId?: string | undefined;
  /** The checkout this payment pays (the widget): after a redirect the shopper returns to the checkout's result. */
  readonly checkoutId?: string | undefined;
}

const INITIAL_TYPES: readonly string[] = ['PA', 'DB', 'CD'];
const PENDING = '000.200.000';

function initialTypeOf(request: PaymentRequest): InitialPaymentType {
  const type = request.paymentType ?? '';
  if (INITIAL_TYPES.includes(type)) return type as InitialPaymentType;
  throw new GatewayError('200.300.404', {
    parameterErrors: [{ name: 'paymentType', value: type, message: 'must be PA, DB or CD; CP, RV and RF go to /v1/payments/{id}' }],
  });
}

/** The statement descriptor: merchant.name overrides it, else the request's, else the channel's name. */
export async function descriptorOf(deps: PaymentDeps, entityId: string, request: PaymentRequest, shortId: string): Promise<string> {
  const merchantName = request.merchant?.name;
  if (merchantName) return `${shortId} ${merchantName}`.slice(0, 127);
  if (request.descriptor) return request.descriptor;
  return `${shortId} ${await deps.entityNames.nameOf(entityId)}`.trim().slice(0, 127);
}

/** A PA, DB or CD whose account and standing instruction are already decided. */
export interface InitialPaymentInput extends CreatePaymentInput {
  readonly method: ResolvedPaymentMethod;
  readonly standingInstruction: PlannedStandingInstruction | undefined;
  readonly registrationId?: string | undefined;
  /**
   * Runs in the database transaction that stores the outcome, so what it writes (a registration,
   * its scheme reference) exists exactly when the payment's outcome does. Answers the id of a
   * registration to show in the response.
   */
  readonly onOutcome?: ((tx: Queryable, outcome: NormalizedOutcome, transactionId: string) => Promise<string | undefined>) | undefined;
}

/**
 * PA, DB or CD with account data: the standing-instruction rules decide, and with
 * createRegistration=true the account is sealed before the connector is asked and stored with
 * the outcome.
 */
export async function createPayment(deps: PaymentDeps, input: CreatePaymentInput): Promise<PaymentView> {
  initialTypeOf(input.request);
  const method = resolvePaymentMethod(input.request);
  const standingInstruction = planStandingInstruction(input.request, method);
  const registration = input.request.createRegistration
    ? await prepareRegistrationFromPayment(deps, { entityId: input.entityId, request: input.request, method, startsSeries: standingInstruction?.startsSeries ?? false })
    : undefined;
  return processInitialPayment(deps, { ...input, method, standingInstruction, onOutcome: registration?.storeWithOutcome });
}

/**
 * validate → 3-D Secure as the entity requires it → persist as pending, with the risk check's
 * attempt and read in the same statement → the risk decision (a rejection, or a step-up to 3-D
 * Secure) → call the connector → persist the outcome with the rules that fired.
 * The pending row is written before the connector is asked, so a process that dies in between
 * leaves a pending payment to reconcile, never a charge the gateway knows nothing about. Every
 * refusal of the request itself (a 400 without a payment) comes before the row; after it, a
 * payment only ends declined, with its id. A payment that sends the shopper away (a provider's
 * page, a 3-D Secure challenge) stores its redirect with its pending answer, in the same statement.
 */
export async function processInitialPayment(deps: PaymentDeps, input: InitialPaymentInput): Promise<PaymentView> {
  const { request, entityId, method } = input;
  const paymentType = initialTypeOf(request);
  if (request.notificationUrl !== undefined) checkTargetUrl('notificationUrl', request.notificationUrl, deps.webhookTargets);
  const amountMinor = request.amount!;
  const currency = request.currency!;
  // Before anything is written: a payment no route may serve is refused (600.200.*), never simulated.
  const routed = await deps.connectors.forPayment({ entityId, brand: method.brand, currency, testMode: request.testMode ?? null });
  // The connector's acquirer may not take every payment type (credits …): refused before anything is written.
  if (!supportsPaymentType(deps.connectors.policyFor(routed.connector.id), paymentType)) throw new GatewayError('600.200.202');
  const id = input.transactionId ?? deps.ids.id();
  const riskInput = { entityId, transactionId: id, request, method, paymentType, amountMinor, currency };
  const preparedRisk = await prepareRisk(deps, riskInput);
  const authenticationInput = { entityId, request, method, paymentType, amountMinor, currency, standingInstruction: input.standingInstruction?.forConnector, gatewayBaseUrl: input.gatewayBaseUrl, registrationId: input.registrationId };
  // A checkout's billing address is the merchant's: lacking it declines the widget's payment, with why.
  const entityAuthentication = await authenticatePayment(deps, { ...authenticationInput, methodPage: true, missingFields: input.checkoutId ? 'decline-billing' : 'refuse-request' });
  const now = deps.clock.now();
  const shortId = newShortId();
  const descriptor = await descriptorOf(deps, entityId, request, shortId);
  const merchantBankAccount = await merchantBankAccountFor(deps, entityId, method.brand);
  const viewWith = (echo: Readonly<Record<string, unknown>>, authentication: PaymentAuthentication) =>
    (outcome: Parameters<typeof buildPaymentView>[0]['outcome'], registrationId: string | undefined, redirect?: RedirectInstruction, appChallenge?: AppChallenge) =>
      buildPaymentView({ id, paymentType, paymentBrand: method.brand, amountMinor, currency, descriptor, merchantTransactionId: request.merchantTransactionId, shortId, outcome, method: method.data, echo, registrationId, standingInstruction: input.standingInstruction, threeDSecure: appChallenge ?? shownAuthentication(authentication), redirect, merchantBankAccount });

  const pendingView = viewWith(input.echo, entityAuthentication)({ code: PENDING, resultDetails: {} }, input.registrationId);
  const read = await deps.writes.insertPending({
    parentId: null,
    isFinal: false,
    paymentBrand: method.brand,
    paymentMethod: method.methodCode,
    merchantTransactionId: request.merchantTransactionId ?? null,
    shortId,
    connectorReferences: {},
    schemeTransactionId: null,
    response: storedResponse(pendingView),
    updatedAt: now,
    routeId: routed.routeId,
    idempotencyClaimId: input.idempotencyClaimId ?? null,
    // The spread last: Node 20's V8 adds each property written after a spread slowly
    // (about 2 µs each; docs/performance.md).
    ...newTransactionState({ id, entityId, paymentType, status: 'pending', amountMinor, currency, createdAt: now, connectorId: routed.connector.id, resultCode: PENDING, maxCaptures: request.numberOfCaptures ?? null }),
  }, preparedRisk?.check);
  const risk = preparedRisk ? decidePaymentRisk(deps, riskInput, preparedRisk, read!) : UNCHECKED;
  const authentication = await authenticationAfterRisk(deps, risk, entityAuthentication, authenticationInput);
  const viewOf = viewWith(risk.echo(input.echo), authentication);

  const shopperReturn = shopperReturnOf(deps, input);
  const connectorRequest: PaymentConnectorRequest = {
    transactionId: id,
    entityId,
    testMode: request.testMode ?? null,
    system: deps.system,
    amountMinor,
    currency,
    brand: method.brand,
    credentials: routed.credentials,
    method: method.data,
    ...(request.billing ? { billing: request.billing } : {}),
    ...connectorThreeDSecureOf(authentication),
    ...(input.standingInstruction ? { standingInstruction: input.standingInstruction.forConnector } : {}),
    ...(request.merchantTransactionId ? { merchantTransactionId: request.merchantTransactionId } : {}),
    descriptor,
    ...(request.chargebackResultCode ? { chargebackResultCode: request.chargebackResultCode } : {}),
    ...(shopperReturn ? { shopperReturn } : {}),
  };
  // Counted once stored, with the connector that answered (none when the gateway answered alone).
  const observed = (outcome: NormalizedOutcome, connector: string | undefined, redirect: NewRedirect | undefined) => {
    deps.observe.payment({ entityId, paymentType, brand: method.brand, connector, resultCode: outcome.code, amountMinor, currency });
    if (redirect) deps.observe.redirect('opened');
  };
  const settleWith = async (outcome: NormalizedOutcome, connector: string | undefined, redirect?: OpenedChallenge) => {
    const redirectRow = redirect && withCheckout(redirect.row, input.checkoutId);
    const settled = (view: SerialisedView) =>
      settledPayment(deps, { id, entityId, outcome, view, schemeTransactionId: outcome.schemeTransactionId ?? null, notificationUrl: request.notificationUrl, redirect: redirectRow, riskEvaluation: risk.evaluation });
    const onOutcome = risk.onOutcome(input.onOutcome);
    if (!onOutcome) {
      const view = serialisedView(viewOf(outcome, input.registrationId, redirect?.instruction, redirect?.appChallenge));
      await deps.writes.settle(settled(view));
      observed(outcome, connector, redirectRow);
      return view;
    }
    const stored = await deps.storage.transaction(async (tx) => {
      const view = serialisedView(viewOf(outcome, (await onOutcome(tx, outcome, id)) ?? input.registrationId, redirect?.instruction, redirect?.appChallenge));
      await writeSettledPayments(tx, [settled(view)]);
      return view;
    });
    observed(outcome, connector, redirectRow);
    return stored;
  };

  if (authentication.kind === 'refuse') return settleWith({ kind: 'declined', code: authentication.code, resultDetails: authentication.resultDetails ?? {} }, undefined);
  if (authentication.kind === 'challenge') {
    const { shopperReturn: back } = connectorRequest;
    // Only a caller without a public URL (none of the HTTP routes) gets here without a way back.
    if (!back) return settleWith({ kind: 'declined', code: '100.390.113', resultDetails: {} }, undefined);
    const challenge = await openChallenge(deps, { transactionId: id, entityId, request, method, paymentType, authentication, connectorRequest: { ...connectorRequest, shopperReturn: back } });
    return settleWith({ kind: 'pending', code: PENDING, resultDetails: {} }, undefined, challenge);
  }
  if (authentication.kind === 'method') {
    // The card's ACS runs a 3DS Method first: the AReq goes once the method page goes on (method-continue.ts).
    const { shopperReturn: back } = connectorRequest;
    if (!back) return settleWith({ kind: 'declined', code: '100.390.113', resultDetails: {} }, undefined);
    const opened = await openMethod(deps, { transactionId: id, entityId, request, method, paymentType, authentication, connectorRequest: { ...connectorRequest, shopperReturn: back } });
    return settleWith({ kind: 'pending', code: PENDING, resultDetails: {} }, undefined, opened);
  }
  let asked = routed;
  const outcome = await callWithFallback(
    deps,
    id,
    routed,
    INITIAL_OPERATIONS[paymentType],
    (target) => {
      asked = target;
      return target.connector[INITIAL_OPERATIONS[paymentType]](target === routed ? connectorRequest : { ...connectorRequest, credentials: target.credentials });
    },
    { secretNumbers: secretNumbersOf(method.data), timeoutMs: deps.connectorTimeoutMs },
  );
  const redirect = outcome.kind === 'pending' && outcome.redirect && shopperReturn
    ? { instruction: outcome.redirect, row: providerRedirectRow(deps, { transactionId: id, entityId, shopperReturn, shopperResultUrl: request.shopperResultUrl!, notificationUrl: request.notificationUrl }) }
    : undefined;
  return recordOutcome(() => settleWith(risk.reviewed(outcome), asked.connector.id, redirect));
}

/**
 * What the risk decision makes of the authentication the entity's setting asked for: a rejection
 * replaces it, and a step-up requires one. An authentication that succeeded or refused the
 * payment stands, a challenge becomes required (its failure declines), and anything else is
 * authenticated again as if the entity always required 3-D Secure. The payment has its row by
 * then, so a request the step-up cannot authenticate (no browser data, no way back) is declined
 * with the missing field's code, never refused as a request.
 */
export async function authenticationAfterRisk(deps: PaymentDeps, risk: Pick<PaymentRisk, 'refusal' | 'threeDSecureRequirement'>, first: PaymentAuthentication, input: PaymentAuthenticationInput): Promise<PaymentAuthentication> {
  if (risk.refusal) return risk.refusal;
  if (!risk.threeDSecureRequirement) return first;
  if (first.kind === 'refuse' || (first.kind === 'proceed' && first.data)) return first;
  if (first.kind === 'challenge' || first.kind === 'method') return { ...first, required: true };
  return authenticatePayment(deps, { ...input, methodPage: true, requirement: risk.threeDSecureRequirement, missingFields: 'decline' });
}

/** A checkout's redirect remembers its checkout: the shopper returns to the checkout's result, not the payment's. */
/** The account a PREPAYMENT's shopper pays into (the entity's, else its merchant's); null when unset. */
async function merchantBankAccountFor(deps: PaymentDeps, entityId: string, brand: string): Promise<MerchantBankAccount | null> {
  if (!paysIntoMerchantAccount(brand)) return null;
  return (await findPayoutBankAccount(deps.storage, entityId)) as MerchantBankAccount | null;
}

function withCheckout(row: NewRedirect, checkoutId: string | undefined): NewRedirect {
  return checkoutId ? { ...row, resume: { ...row.resume, checkoutId } } : row;
}

/** The block a payment answer shows of the gateway's own authentication. */
function shownAuthentication(authentication: PaymentAuthentication): Record<string, string> | undefined {
  if ((authentication.kind === 'proceed' || authentication.kind === 'refuse') && authentication.data) {
    return threeDSecureBlock(authentication.data, authentication.kind === 'proceed' ? authentication.exemption : undefined);
  }
  return undefined;
}

function connectorThreeDSecureOf(authentication: PaymentAuthentication): { threeDSecure?: ThreeDSecureData } {
  if (authentication.kind === 'proceed' && authentication.data) return { threeDSecure: connectorThreeDSecure(authentication.data, authentication.exemption) };
  if (authentication.kind === 'none' && authentication.passthrough) return { threeDSecure: authentication.passthrough };
  return {};
}

/** The gateway's return endpoint of a new redirect, when the shopper can be sent away at all. */
function shopperReturnOf(deps: PaymentDeps, input: InitialPaymentInput): ShopperReturn | undefined {
  if (!input.request.shopperResultUrl || !input.gatewayBaseUrl) return undefined;
  const reference = deps.ids.id();
  return { returnUrl: returnUrlOf(input.gatewayBaseUrl, reference), gatewayBaseUrl: input.gatewayBaseUrl, reference, locale: input.locale };
}
