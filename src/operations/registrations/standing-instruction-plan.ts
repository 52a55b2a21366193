import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import type { StandingInstructionData } from '../../connectors/connector.js';
import { decideStandingInstruction, type StandingInstructionFacts, type StandingInstructionInput } from '../../domain/standing-instruction.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { ResolvedPaymentMethod } from '../payments/payment-method.js';

/** What a payment does with its standing instruction, ready for the connector and the response. */
export interface PlannedStandingInstruction {
  readonly forConnector: StandingInstructionData;
  /** Fields the gateway adds to the echoed standingInstruction (initial id used, defaults applied). */
  readonly shownAdditions: Readonly<Record<string, string>>;
  /**
   * INITIAL: the response carries this payment's scheme reference as initialTransactionId, and a
   * registration remembers it for its later MITs.
   */
  readonly startsSeries: boolean;
}

// Shopper authentication values in the order a violation names them.
const SHOPPER_AUTHENTICATION: ReadonlyArray<readonly [string, (r: PaymentRequest) => unknown]> = [
  ['card.cvv', (r) => r.card?.cvv],
  ['tokenAccount.dtvc', (r) => r.tokenAccount?.dtvc],
  ['tokenAccount.cryptogram', (r) => r.tokenAccount?.cryptogram],
  ['threeDSecure.verificationId', (r) => r.threeDSecure?.verificationId],
  ['threeDSecure.eci', (r) => r.threeDSecure?.eci],
  ['threeDSecure.authenticationStatus', (r) => r.threeDSecure?.authenticationStatus],
];

/** The signals that ask the gateway itself to authenticate (catalogue/three-d-secure-fields.ts: THREE_D_SECURE_V2_SIGNALS). */
function asksForThreeDSecure(request: PaymentRequest): boolean {
  const custom = request.customParameters ?? {};
  const t = request.threeDSecure ?? {};
  return custom['3DS2_enrolled'] === 'true' || custom['3DS2_flow'] !== undefined || [t.challengeIndicator, t.authenticationInd, t.npa, t.decoupled].some((v) => v !== undefined);
}

function accountOf(method: ResolvedPaymentMethod): StandingInstructionFacts['account'] {
  switch (method.data.kind) {
    case 'card':
      return 'card';
    case 'tokenAccount':
      return 'tokenAccount';
    case 'walletDecrypted':
    case 'walletToken':
      return 'wallet';
    default:
      return 'other';
  }
}

function instructionInput(request: PaymentRequest): StandingInstructionInput | undefined {
  const si = request.standingInstruction;
  if (!si) return undefined;
  return { ...si, expiry: si.expiry ? si.expiry.toISOString().slice(0, 10) : undefined };
}

/**
 * Applies the standing-instruction rules to a payment; a broken rule becomes the answer, with
 * the parameter it concerns. `registration` is set when the gateway stores the card.
 */
export function planStandingInstruction(
  request: PaymentRequest,
  method: ResolvedPaymentMethod,
  registration?: { readonly initialSchemeReference: string | null },
): PlannedStandingInstruction | undefined {
  const instruction = instructionInput(request);
  const decision = decideStandingInstruction({
    instruction,
    account: accountOf(method),
    brand: method.brand,
    shopperAuthentication: SHOPPER_AUTHENTICATION.filter(([, read]) => read(request) !== undefined).map(([name]) => name),
    threeDSecureRequested: asksForThreeDSecure(request),
    registration,
  });
  if (!decision.ok) {
    const { code, parameter, message } = decision.violation;
    const value = parameter.startsWith('standingInstruction.') ? String((instruction as Record<string, unknown> | undefined)?.[parameter.slice(20)] ?? '') : '';
    throw new GatewayError(code, { parameterErrors: [{ name: parameter, value, message }] });
  }
  const plan = decision.plan;
  if (!plan || !instruction) return undefined;
  const usedInitialId = plan.initialTransactionId !== undefined && plan.initialTransactionId !== instruction.initialTransactionId;
  return {
    forConnector: { ...(instruction.type ? { type: instruction.type } : {}), mode: plan.mode, source: plan.source, ...(plan.initialTransactionId ? { initialTransactionId: plan.initialTransactionId } : {}) },
    shownAdditions: { ...plan.defaults, ...(usedInitialId ? { initialTransactionId: plan.initialTransactionId! } : {}) },
    startsSeries: plan.returnsSchemeReference,
  };
}
