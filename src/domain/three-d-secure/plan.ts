import { isRequired, type ThreeDSecureRequirement } from './requirement.js';

/** What a payment request says about 3-D Secure: plain facts the payment flow gathers. */
export interface AuthenticationFacts {
  readonly paymentType: 'PA' | 'DB' | 'CD';
  /** PaymentMethodData['kind'] (connectors/connector.ts); only 'card' is authenticated by the service: wallets and tokens carry their own cryptogram. */
  readonly methodKind: string;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly standingInstruction?: { readonly mode?: 'INITIAL' | 'REPEATED'; readonly source?: 'CIT' | 'MIT' } | undefined;
  /** threeDSecure.eci / verificationId / authenticationStatus sent: an external 3DS server authenticated. */
  readonly externalResult: boolean;
  /** Names of the threeDSecure.* parameters in the request. */
  readonly threeDSecureFieldsSent: readonly string[];
  readonly challengeIndicator?: string | undefined;
  readonly exemptionFlag?: string | undefined;
  /** customParameters[3DS2_enrolled]=true */
  readonly forcedEnrolled: boolean;
  /** customParameters[3DS2_flow] */
  readonly forcedFlow?: 'challenge' | 'frictionless' | undefined;
  /** threeDSecure.threeRIInd or threeDSecure.channel 03 sent, without threeDSecure.deviceInfo (three-ri.ts). */
  readonly threeRiAsked?: boolean | undefined;
}

export type NoAuthenticationReason = 'policy-never' | 'not-a-card' | 'credit' | 'merchant-initiated';

export type AuthenticationPlan =
  | { readonly kind: 'none'; readonly reason: NoAuthenticationReason }
  /** External results go to the connector as they are. */
  | { readonly kind: 'passthrough' }
  | {
      readonly kind: 'authenticate';
      /** The payment may not go on without a successful authentication (the entity's requirement). */
      readonly required: boolean;
      /** threeDSecure.challengeIndicator 04: the requestor is mandated to challenge. */
      readonly challengeRequested: boolean;
      /** Recorded and sent to the directory as requested (exemptions are honoured, see directory.ts). */
      readonly exemptionFlag?: string;
      readonly challengeIndicator?: string;
      /** A 3DS Requestor Initiated authentication (deviceChannel 03): the shopper is absent, no challenge. */
      readonly requestorInitiated?: true;
    };

/** threeDSecure.challengeIndicator 04: "Challenge requested (Mandate)" in EMV 3-D Secure. */
export const CHALLENGE_MANDATE_INDICATOR = '04';

/**
 * The series role of a standing instruction with the defaults of standing-instruction.ts applied:
 * an absent source is MIT on a REPEATED payment (the shopper is away), CIT otherwise; an absent
 * mode is REPEATED for a MIT.
 */
export function isMerchantInitiated(instruction: AuthenticationFacts['standingInstruction']): boolean {
  if (!instruction) return false;
  return (instruction.source ?? (instruction.mode === 'REPEATED' ? 'MIT' : 'CIT')) === 'MIT';
}

/**
 * What the service does about 3-D Secure, first matching rule wins:
 * 1. a credit (CD) pays the shopper: nobody authenticates to receive money;
 * 2. an external result is passed through as it is, whatever the entity's setting;
 * 3. only cards are authenticated by the service (wallets and network tokens bring a cryptogram);
 * 4. a merchant-initiated payment has no shopper to authenticate, unless it asks for a 3RI
 *    (threeDSecure.threeRIInd or channel 03): the merchant authenticates it without the shopper;
 * 5. an entity set to never does not authenticate (forcing parameters do not override the operator);
 * 6. otherwise authenticate (3RI where asked for); `required` from the entity's setting and the amount.
 * Run standingInstructionViolations first: a MIT carrying 3DS data is refused, not planned.
 */
export function planAuthentication(requirement: ThreeDSecureRequirement, facts: AuthenticationFacts): AuthenticationPlan {
  if (facts.paymentType === 'CD') return { kind: 'none', reason: 'credit' };
  if (facts.externalResult) return { kind: 'passthrough' };
  if (facts.methodKind !== 'card') return { kind: 'none', reason: 'not-a-card' };
  if (isMerchantInitiated(facts.standingInstruction) && !facts.threeRiAsked) return { kind: 'none', reason: 'merchant-initiated' };
  if (requirement.mode === 'never') return { kind: 'none', reason: 'policy-never' };
  return {
    kind: 'authenticate',
    ...(facts.threeRiAsked ? { requestorInitiated: true as const } : {}),
    required: isRequired(requirement, facts.amountMinor, facts.currency),
    challengeRequested: facts.challengeIndicator === CHALLENGE_MANDATE_INDICATOR,
    ...(facts.exemptionFlag !== undefined ? { exemptionFlag: facts.exemptionFlag } : {}),
    ...(facts.challengeIndicator !== undefined ? { challengeIndicator: facts.challengeIndicator } : {}),
  };
}

/**
 * threeDSecure.* parameters a merchant-initiated payment may carry: they flag a 3DS Requestor
 * Initiated (3RI) authentication, which is made by the merchant without the shopper, so they are
 * no shopper authentication data.
 */
export const MERCHANT_INITIATED_THREE_D_SECURE_FIELDS: readonly string[] = ['threeDSecure.channel', 'threeDSecure.threeRIInd'];

/**
 * 600.200.501 "Invalid payment data for Recurring transaction": the code standing-instruction.ts
 * already gives a REPEATED payment carrying a CVV or 3DS values (repeatedCarriesNoShopperAuthentication),
 * so a client sees one code for one broken rule whichever check meets it first. The 3-D Secure
 * group (100.390.*, 800.400.2*) would say an authentication ran and failed; none ran.
 */
export const STANDING_INSTRUCTION_VIOLATION_CODE = '600.200.501';

/**
 * Standing-instruction rules: an INITIAL CIT may carry 3DS data; a REPEATED MIT must not carry
 * shopper authentication data (each offending field named). An INITIAL MIT is refused by
 * standing-instruction.ts (mitIsNeverInitial) before it gets here, so it is not reported twice.
 */
export function standingInstructionViolations(facts: AuthenticationFacts): readonly { readonly name: string; readonly code: string; readonly message: string }[] {
  const instruction = facts.standingInstruction;
  if (!isMerchantInitiated(instruction) || instruction?.mode === 'INITIAL') return [];
  return facts.threeDSecureFieldsSent
    .filter((name) => !MERCHANT_INITIATED_THREE_D_SECURE_FIELDS.includes(name))
    .map((name) => ({
      name,
      code: STANDING_INSTRUCTION_VIOLATION_CODE,
      message: 'must be absent on a REPEATED merchant-initiated standing instruction: the shopper is not present to authenticate',
    }));
}
