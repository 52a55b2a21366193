import { validateRequest, type Endpoint, type RequestBody } from '../../catalogue/index.js';
import type { EndpointRequest } from '../../catalogue/request-types.generated.js';
import { ATTEMPT_IN_PROGRESS, CHECKOUT_GONE, decideAttempt, type CheckoutState } from '../../domain/checkouts/attempt.js';
import { GatewayError } from '../../results/gateway-error.js';
import { claimAttempt, recordAttemptState, type StoredCheckout } from '../../storage/repositories/checkouts.js';
import type { CheckoutDeps } from './checkout-deps.js';
import { cancelWaitingAttempt } from './cancel-waiting-attempt.js';
import { checkoutGone, latestAttemptStatus } from './load-checkout.js';

/** A merged widget request, validated as what it becomes (for the checkout's entity): the first broken rule names its field. */
export function validatedFor<E extends Endpoint>(endpoint: E, checkout: StoredCheckout, parameters: Readonly<Record<string, string>>, now: Date): EndpointRequest<E> {
  const result = validateRequest(endpoint, { ...parameters, entityId: checkout.entityId } as RequestBody, { now, unknownParameters: 'reject' });
  if (!result.ok) throw new GatewayError(result.code, { parameterErrors: result.parameterErrors });
  return result.request;
}

/**
 * Takes the checkout for a new attempt (one conditional UPDATE: of two posts one wins), or says
 * why it cannot take one. Answers the attempt's id, which its payment or registration will carry.
 */
export async function claimCheckout(deps: CheckoutDeps, checkout: StoredCheckout, shopperResultUrl: string | undefined): Promise<string> {
  const now = deps.clock.now();
  const decision = decideAttempt(checkout, await latestAttemptStatus(deps, checkout), now);
  if (decision.kind === 'refuse') throw decision.code === CHECKOUT_GONE ? checkoutGone(checkout.id, decision.reason) : new GatewayError(decision.code);
  if (decision.kind === 'cancel-redirect-then-proceed' && !(await cancelWaitingAttempt(deps, checkout.attemptId!))) throw new GatewayError(ATTEMPT_IN_PROGRESS);
  const attemptId = deps.ids.id();
  if (!(await claimAttempt(deps.storage, checkout, { id: attemptId, shopperResultUrl }, now))) throw new GatewayError(ATTEMPT_IN_PROGRESS);
  return attemptId;
}

/**
 * Runs an attempt under its claim and records how it ended. An attempt that failed before it
 * wrote anything (a refused route, an unusable stored card …) gives the checkout back at once;
 * one whose payment exists keeps it until that payment ends.
 */
export async function runAttempt<T>(
  deps: CheckoutDeps,
  claim: { readonly checkoutId: string; readonly attemptId: string },
  attempt: () => Promise<T>,
  outcome: { readonly stateOf: (result: T) => CheckoutState; readonly wroteAnything: () => Promise<boolean> },
): Promise<T> {
  try {
    const result = await attempt();
    await recordAttemptState(deps.storage, claim.checkoutId, claim.attemptId, outcome.stateOf(result), deps.clock.now());
    return result;
  } catch (error) {
    if (!(await outcome.wroteAnything())) await recordAttemptState(deps.storage, claim.checkoutId, claim.attemptId, 'open', deps.clock.now());
    throw error;
  }
}
