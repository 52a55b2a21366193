import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import { BILLING_FOR_THREE_D_SECURE_V2, BROWSER_DATA_FOR_THREE_D_SECURE_V2 } from '../../catalogue/three-d-secure-fields.js';
import type { CardDetails, StandingInstructionData, ThreeDSecureData } from '../../connectors/connector.js';
import type { AuthenticationData, BrowserData, ChallengeSession, DirectoryQuery, LookupAnswer, MethodStart, ThreeDSecureServer } from '../../connectors/three-d-secure.js';
import { authenticatedAmount, deviceChannelOf, type AuthenticatedAmount, type DeviceChannel } from '../../domain/three-d-secure/authentication-request.js';
import { paymentAfterDirectory } from '../../domain/three-d-secure/outcome-codes.js';
import { isMerchantInitiated, planAuthentication, standingInstructionViolations, type AuthenticationFacts, type AuthenticationPlan } from '../../domain/three-d-secure/plan.js';
import { parseDeviceInfo, type SdkDeviceInfo } from '../../domain/three-d-secure/device-info.js';
import { requestorAuthentication, type RequestorAuthentication } from '../../domain/three-d-secure/requestor-authentication.js';
import { asksForThreeRi, priorAuthenticationInfo, threeRiIndicator } from '../../domain/three-d-secure/three-ri.js';
import type { Storage } from '../../storage/port.js';
import { priorAuthenticationOf } from './prior-authentication.js';
import type { InitialPaymentType } from '../../domain/transaction.js';
import type { ThreeDSecureRequirement } from '../../domain/three-d-secure/requirement.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { ParameterError } from '../../results/gateway-error.js';
import type { ResolvedPaymentMethod } from '../payments/payment-method.js';
import type { ThreeDSecureSettings } from './requirement-settings.js';
import type { Observer } from '../../observability/observer.js';
import { directoryOutcome } from './observe-authentication.js';

export interface PaymentAuthenticationDeps {
  readonly system: 'test' | 'live';
  /** The 3-D Secure server: the simulated one on the test system, none (yet) on the live system. */
  readonly threeDSecure?: ThreeDSecureServer | undefined;
  readonly threeDSecureSettings: ThreeDSecureSettings;
  readonly ids: { id(): string };
  /** Where each authentication's outcome is counted (the metrics). */
  readonly observe?: Observer | undefined;
  /** Where a 3RI finds the earlier authentication it rests on (the registration's initial payment); none: the AReq says none. */
  readonly storage?: Storage | undefined;
}

export interface PaymentAuthenticationInput {
  readonly entityId: string;
  readonly request: PaymentRequest;
  readonly method: ResolvedPaymentMethod;
  readonly paymentType: InitialPaymentType;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly standingInstruction?: StandingInstructionData | undefined;
  /** The gateway's address as the request reached it (a real 3DS server's notificationURL). */
  readonly gatewayBaseUrl?: string | undefined;
  /** Replaces the entity's setting: a standalone authentication is asked for, so it is required. */
  readonly requirement?: ThreeDSecureRequirement | undefined;
  /**
   * What fields an authentication needs and the request lacks make of it: by default the request
   * is refused (a 400, nothing written); 'decline' answers a refusal of the payment instead, for
   * a payment whose row is already written (a step-up the risk decision asks for);
   * 'decline-billing' declines when only billing fields are missing: a widget payment, whose billing
   * address comes with the merchant's checkout, so the shopper could correct nothing and the
   * merchant's status call must learn why (fields the poster sends still refuse the request).
   */
  readonly missingFields?: 'refuse-request' | 'decline' | 'decline-billing' | undefined;
  /** The registration a payment is made on: its initial payment's authentication is a 3RI's prior authentication. */
  readonly registrationId?: string | undefined;
  /**
   * The caller shows the gateway's 3DS Method page (a payment with a way back): a card whose ACS
   * has a method URL then gets `method` instead of its AReq (docs/three-d-secure.md, "The 3DS Method").
   */
  readonly methodPage?: boolean | undefined;
}

/** What 3-D Secure makes of a payment before its connector is asked. */
export type PaymentAuthentication =
  /** No authentication by the service; the request's own 3DS data (an external server's) goes through. */
  | { readonly kind: 'none'; readonly passthrough?: ThreeDSecureData | undefined }
  /** Authenticated without the shopper (or not enrolled where that is allowed): the payment goes on. */
  | { readonly kind: 'proceed'; readonly data?: AuthenticationData | undefined; readonly exemption: Exemption }
  /** Authentication ended the payment: it is stored declined with this code (and these result details). */
  | { readonly kind: 'refuse'; readonly code: string; readonly data?: AuthenticationData | undefined; readonly resultDetails?: Readonly<Record<string, string>> | undefined }
  /** The issuer wants the shopper: a challenge redirect (browser), or the SDK's own challenge (app). */
  | { readonly kind: 'challenge'; readonly required: boolean; readonly ids: ChallengeIds; readonly exemption: Exemption; readonly channel: DeviceChannel; readonly purchase: AuthenticatedAmount; readonly session?: ChallengeSession | undefined }
  /**
   * The card's ACS runs a 3DS Method first: the shopper's browser goes to the gateway's method
   * page, and the AReq goes afterwards with this query (without the card, which is sealed with
   * the redirect) and the server's routing.
   */
  | { readonly kind: 'method'; readonly required: boolean; readonly exemption: Exemption; readonly purchase: AuthenticatedAmount; readonly method: MethodStart; readonly query: Omit<DirectoryQuery, 'pan' | 'cardExpiry'>; readonly routing: MethodRouting };

/** Which 3DS server the AReq after the method goes to: the payment's route, as forPayment chose it first. */
export interface MethodRouting {
  readonly entityId: string;
  readonly brand: string;
  readonly currency: string;
}

export interface Exemption {
  readonly challengeIndicator?: string | undefined;
  readonly exemptionFlag?: string | undefined;
}

export interface ChallengeIds {
  readonly dsTransactionId: string;
  readonly acsTransactionId: string;
}

const EXTERNAL_RESULT_FIELDS = ['eci', 'verificationId', 'authenticationStatus'] as const;


/** A version-4 style UUID from a 32-hex gateway id: the 36-character form 3-D Secure ids take. */
function uuidOf(hex32: string): string {
  const h = hex32.toLowerCase().padEnd(32, '0').slice(0, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function factsOf(input: PaymentAuthenticationInput): AuthenticationFacts {
  const { request } = input;
  const threeDSecure = (request.threeDSecure ?? {}) as Record<string, unknown>;
  const flow = request.customParameters?.['3DS2_flow'];
  return {
    paymentType: input.paymentType,
    methodKind: input.method.data.kind,
    amountMinor: input.amountMinor,
    currency: input.currency,
    standingInstruction: input.standingInstruction,
    externalResult: EXTERNAL_RESULT_FIELDS.some((name) => threeDSecure[name] !== undefined),
    threeDSecureFieldsSent: Object.keys(threeDSecure).map((name) => `threeDSecure.${name}`),
    challengeIndicator: request.threeDSecure?.challengeIndicator,
    exemptionFlag: request.threeDSecure?.exemptionFlag,
    forcedEnrolled: request.customParameters?.['3DS2_enrolled'] === 'true',
    forcedFlow: flow === 'challenge' || flow === 'frictionless' ? flow : undefined,
    // An app payment has its shopper: the 3RI flags do not make it one without.
    threeRiAsked: asksForThreeRi({ threeRIInd: request.threeDSecure?.threeRIInd, channel: request.threeDSecure?.channel }) && deviceChannelOf(request.threeDSecure?.deviceInfo) !== 'app',
  };
}

/** The result code of a threeDSecure.deviceInfo that is not the SDK's authRequestParams: invalid or missing parameter. */
export const INVALID_DEVICE_INFO_CODE = '200.300.404';

/** threeDSecure.deviceInfo parsed for a server that sends it in the AReq; a request with another is refused, every problem named. */
function sdkDataOf(request: PaymentRequest): SdkDeviceInfo {
  const parsed = parseDeviceInfo(request.threeDSecure?.deviceInfo ?? '');
  if (parsed.ok) return parsed.info;
  throw new GatewayError(INVALID_DEVICE_INFO_CODE, { parameterErrors: [{ name: 'threeDSecure.deviceInfo', value: '', message: `must be the 3DS SDK's authRequestParams as base64 JSON (docs/three-d-secure.md): ${parsed.problems.join('; ')}` }] });
}

/** 100.390.121 "3RI transaction rejected": a 3RI the issuer refused (N, R), whatever the entity's setting. */
export const THREE_RI_REJECTED_CODE = '100.390.121';

/** Where docs/api.md explains what an authentication needs; every message about a missing field points there. */
export const AUTHENTICATION_FIELDS_DOCS = 'docs/api.md#what-an-authentication-needs';

function required(name: string, why: string): ParameterError {
  return { name, value: '', message: `is required for 3D Secure v2 ${why} (${AUTHENTICATION_FIELDS_DOCS})` };
}

/**
 * Every field an authentication on this channel needs and the request lacks, each its own entry,
 * so one answer says all that is missing: the way back (both channels: the ACS's completion lands
 * there), the shopper's browser (browser channel only: the app channel's device data is in
 * threeDSecure.deviceInfo) and the billing address (both).
 */
function missingAuthenticationFields(request: PaymentRequest, channel: DeviceChannel): ParameterError[] {
  const browser = (request.customer?.browser ?? {}) as Record<string, unknown>;
  const billing = (request.billing ?? {}) as Record<string, unknown>;
  const missing: ParameterError[] = [];
  if (!request.shopperResultUrl) missing.push(required('shopperResultUrl', 'authentication: the shopper returns there after a challenge'));
  if (channel === 'browser') {
    for (const name of BROWSER_DATA_FOR_THREE_D_SECURE_V2) {
      if (browser[name.slice('customer.browser.'.length)] === undefined) missing.push(required(name, 'in a browser (or send threeDSecure.deviceInfo from the mobile SDK)'));
    }
  }
  for (const [name] of BILLING_FOR_THREE_D_SECURE_V2) {
    if (billing[name.slice('billing.'.length)] === undefined) missing.push(required(name, 'authentication: the billing address'));
  }
  return missing;
}

function declinesFor(mode: PaymentAuthenticationInput['missingFields'], missing: readonly ParameterError[]): boolean {
  if (mode === 'decline') return true;
  return mode === 'decline-billing' && missing.every((field) => BILLING_FOR_THREE_D_SECURE_V2.some(([name]) => name === field.name));
}

function missingFieldsCode(missing: readonly ParameterError[]): string {
  if (missing[0]?.name === 'shopperResultUrl') return '100.370.101';
  const billing = BILLING_FOR_THREE_D_SECURE_V2.find(([name]) => missing[0]?.name === name);
  return billing ? billing[1] : '200.300.404';
}

/** What a declined payment's resultDetails say of the fields its authentication lacked. */
function missingFieldsDescription(missing: readonly ParameterError[]): string {
  return `3-D Secure authentication needs ${missing.map((m) => m.name).join(', ')}`;
}

/** The amount the authentication covers; the entity's requirement above stays on the payment's own amount. */
function purchaseOf(input: PaymentAuthenticationInput): AuthenticatedAmount {
  const { threeDSecure, risk } = input.request;
  return authenticatedAmount({
    amountMinor: input.amountMinor,
    currency: input.currency,
    threeDSecureAmountMinor: threeDSecure?.amount,
    threeDSecureCurrency: threeDSecure?.currency,
    riskAmountMinor: risk?.amount,
  });
}

function cardOf(method: ResolvedPaymentMethod): CardDetails | undefined {
  return method.data.kind === 'card' ? method.data.card : undefined;
}

/** The shopper's browser as the request describes it (customer.browser.*, customer.ip). */
function browserOf(request: PaymentRequest): BrowserData | undefined {
  const browser = request.customer?.browser;
  const ip = request.customer?.ip;
  if (!browser && ip === undefined) return undefined;
  return { ...browser, ip };
}

/** The 3-D Secure data an external server's result passes to the connector as sent. */
function passthroughOf(request: PaymentRequest): ThreeDSecureData | undefined {
  const t = request.threeDSecure;
  if (!t) return undefined;
  const data: Record<string, string> = {};
  for (const name of ['eci', 'verificationId', 'authenticationStatus', 'dsTransactionId', 'acsTransactionId', 'version', 'challengeIndicator', 'exemptionFlag'] as const) {
    const value = (t as Record<string, unknown>)[name];
    if (typeof value === 'string') data[name] = value;
  }
  return Object.keys(data).length > 0 ? data : undefined;
}

/**
 * Decides 3-D Secure for a PA, DB or CD before anything is written: the entity's requirement and
 * the request plan it (planAuthentication), the directory says whether the card is enrolled, and
 * an authentication that runs needs the shopper's browser data, billing address and a way back.
 * Refusals of the request itself (a REPEATED MIT with 3DS data, missing fields unless
 * `missingFields` is 'decline') are thrown; refusals of the payment (not enrolled where required,
 * a technical error) are answered as `refuse`, so the payment is stored declined like any other.
 */
export async function authenticatePayment(deps: PaymentAuthenticationDeps, input: PaymentAuthenticationInput): Promise<PaymentAuthentication> {
  const facts = factsOf(input);
  const violations = standingInstructionViolations(facts);
  if (violations.length > 0) {
    throw new GatewayError(violations[0]!.code, { parameterErrors: violations.map((v) => ({ name: v.name, value: '', message: v.message })) });
  }
  const requirement = input.requirement ?? (await deps.threeDSecureSettings.requirementOf(input.entityId));
  const plan: AuthenticationPlan = planAuthentication(requirement, facts);
  if (plan.kind === 'passthrough') return { kind: 'none', passthrough: passthroughOf(input.request) };
  if (plan.kind === 'none') return { kind: 'none', passthrough: passthroughOf(input.request) };
  const card = cardOf(input.method);
  if (!card) return { kind: 'none' };
  // The 3DS server route of the payment, else the gateway's default (docs/three-d-secure.md).
  const server = deps.threeDSecure?.forPayment
    ? await deps.threeDSecure.forPayment({ entityId: input.entityId, brand: input.method.brand, currency: input.currency })
    : deps.threeDSecure;
  if (!server) {
    // No 3-D Secure server on this system: never simulated on the live system.
    return plan.required ? { kind: 'refuse', code: '000.400.104' } : { kind: 'none' };
  }
  // A server that sends no 3RI (the simulator): a merchant-initiated payment goes on unauthenticated, as before 3RI.
  if (plan.requestorInitiated && !server.requestorInitiated && isMerchantInitiated(facts.standingInstruction)) return { kind: 'none', passthrough: passthroughOf(input.request) };
  const threeRi = plan.requestorInitiated === true && server.requestorInitiated === true;
  const exemption: Exemption = { challengeIndicator: plan.challengeIndicator ?? facts.challengeIndicator, exemptionFlag: plan.exemptionFlag ?? facts.exemptionFlag };
  const channel = deviceChannelOf(input.request.threeDSecure?.deviceInfo);
  const sdk = channel === 'app' && server.readsDeviceInfo ? sdkDataOf(input.request) : undefined;
  const purchase = purchaseOf(input);
  const requestorInitiated = threeRi ? await requestorInitiatedOf(deps, input) : undefined;
  const query: Omit<DirectoryQuery, 'pan' | 'cardExpiry'> = {
    sdk,
    requestorInitiated,
    gatewayBaseUrl: input.gatewayBaseUrl,
    browser: browserOf(input.request),
    channel,
    purchase,
    forcedEnrolled: facts.forcedEnrolled,
    forcedFlow: facts.forcedFlow,
    challengeRequested: plan.challengeRequested,
    challengeIndicator: exemption.challengeIndicator,
    requestorAuthentication: requestorAuthenticationOf(input),
    exemptionFlag: exemption.exemptionFlag,
  };
  // A 3RI has no shopper's browser to run a 3DS Method in.
  const methodPage = input.methodPage === true && input.gatewayBaseUrl !== undefined && !threeRi;
  const looked: LookupAnswer = await server.lookup({ ...query, pan: card.number, cardExpiry: { month: card.expiryMonth, year: card.expiryYear }, methodPage });
  // No challenge is possible without the shopper (EMV 3DS: none for deviceChannel 03): no result, never a success.
  const answer: LookupAnswer = threeRi && looked.kind === 'challenge' ? { kind: 'unavailable' } : looked;
  // A real directory refuses an AReq without the browser's data (Erro 201: 'unavailable'); the
  // request's missing fields are the cause to report, as for the simulated directory's answers.
  // The method's AReq would lack them too: refused before the shopper is sent to the method page.
  if (!threeRi && (answer.kind === 'frictionless' || answer.kind === 'challenge' || answer.kind === 'error' || answer.kind === 'unavailable' || answer.kind === 'method')) {
    const missing = missingAuthenticationFields(input.request, channel);
    if (missing.length > 0 && declinesFor(input.missingFields, missing)) return { kind: 'refuse', code: missingFieldsCode(missing), resultDetails: { ExtendedDescription: missingFieldsDescription(missing) } };
    if (missing.length > 0) throw new GatewayError(missingFieldsCode(missing), { parameterErrors: missing });
  }
  if (answer.kind === 'method') {
    return { kind: 'method', required: plan.required, exemption, purchase, method: answer.method, query, routing: { entityId: input.entityId, brand: input.method.brand, currency: input.currency } };
  }
  const outcome = directoryOutcome(answer);
  if (outcome) deps.observe?.threeDSecure(outcome);
  // The ids of an authentication (AReq/ARes); a card the directory does not enrol gets none.
  const ids = () => ({ dsTransactionId: uuidOf(deps.ids.id()), acsTransactionId: uuidOf(deps.ids.id()) });
  if (answer.kind === 'challenge') {
    // A real 3DS server's challenge runs in the ARes's transaction: its ids, not invented ones.
    const session = answer.challenge;
    const challengeIds = session ? { dsTransactionId: session.dsTransID, acsTransactionId: session.acsTransID } : ids();
    return { kind: 'challenge', required: plan.required, ids: challengeIds, exemption, channel, purchase, ...(session ? { session } : {}) };
  }
  const end = paymentAfterDirectory(answer, plan.required);
  // A real 3DS server's ARes brings its own data (eci, authenticationValue, ids): taken as given.
  const data = answer.authentication ?? (answer.kind === 'frictionless'
    ? server.authenticationData(card.number, answer.status, ids(), false)
    : answer.kind === 'error'
      ? server.authenticationData(card.number, 'U', ids(), false)
      : undefined);
  if (end.kind === 'refuse') return { kind: 'refuse', code: threeRi && answer.kind === 'failed' ? THREE_RI_REJECTED_CODE : end.code, data };
  return { kind: 'proceed', data: end.withLiabilityShift ? data : undefined, exemption };
}

/** The AReq's threeDSRequestorAuthenticationInd and series data: the request's authenticationInd and standing instruction (effective mode and source). */
function requestorAuthenticationOf(input: PaymentAuthenticationInput): RequestorAuthentication {
  const sent = input.request.standingInstruction;
  const instruction = (sent || input.standingInstruction) && { ...sent, ...input.standingInstruction, expiry: sent?.expiry?.toISOString().slice(0, 10) };
  return requestorAuthentication({ authenticationInd: input.request.threeDSecure?.authenticationInd, standingInstruction: instruction, brand: input.method.brand });
}

/** The 3RI's threeRIInd and the earlier authentication where the registration's initial payment had one. */
async function requestorInitiatedOf(deps: PaymentAuthenticationDeps, input: PaymentAuthenticationInput): Promise<{ readonly indicator: string; readonly prior?: Readonly<Record<string, string>> }> {
  const indicator = threeRiIndicator({ threeRIInd: input.request.threeDSecure?.threeRIInd, standingInstructionType: input.standingInstruction?.type });
  const prior = deps.storage && input.registrationId ? await priorAuthenticationOf(deps.storage, input.entityId, input.registrationId) : undefined;
  return { indicator, ...(prior ? { prior: priorAuthenticationInfo(prior) } : {}) };
}

/** The threeDSecure block of a payment answer (compatibility.md: eci, verificationId, version …). */
export function threeDSecureBlock(data: AuthenticationData, exemption?: Exemption): Record<string, string> {
  return {
    eci: data.eci,
    ...(data.verificationId ? { verificationId: data.verificationId } : {}),
    version: data.version,
    dsTransactionId: data.dsTransactionId,
    acsTransactionId: data.acsTransactionId,
    authenticationStatus: data.status,
    ...(data.challengeMandatedIndicator ? { challengeMandatedIndicator: data.challengeMandatedIndicator } : {}),
    ...(data.transactionStatusReason ? { transactionStatusReason: data.transactionStatusReason } : {}),
    ...(exemption?.challengeIndicator ? { challengeIndicator: exemption.challengeIndicator } : {}),
    ...(exemption?.exemptionFlag ? { exemptionFlag: exemption.exemptionFlag } : {}),
  };
}

/** What the connector gets of an authentication. */
export function connectorThreeDSecure(data: AuthenticationData, exemption?: Exemption): ThreeDSecureData {
  return {
    eci: data.eci,
    ...(data.verificationId ? { verificationId: data.verificationId } : {}),
    authenticationStatus: data.status,
    dsTransactionId: data.dsTransactionId,
    acsTransactionId: data.acsTransactionId,
    version: data.version,
    ...(exemption?.challengeIndicator ? { challengeIndicator: exemption.challengeIndicator } : {}),
    ...(exemption?.exemptionFlag ? { exemptionFlag: exemption.exemptionFlag } : {}),
  };
}
