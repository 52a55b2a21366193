import { GatewayError } from '../../results/gateway-error.js';
import { CHECKOUT_GONE } from '../../domain/checkouts/attempt.js';
import { claimRedirect, endRedirect, findOpenRedirectOf, releaseRedirect, type ShopperRedirect } from '../../storage/repositories/shopper-redirects.js';
import { findTransactionById, type StoredTransaction } from '../../storage/repositories/transactions.js';
import type { PaymentDeps } from '../deps.js';
import { applyResolutionIn } from '../pending/apply-resolution.js';
import { statusRequestOf } from '../pending/check-pending.js';
import { connectorWasCalled, rejectWaitingPayment } from '../redirects/expire-redirects.js';
import { observeLaterOutcome } from '../payments/observe-payment.js';
import { challengeOutcome } from '../three-d-secure/observe-authentication.js';

/** What a payment ends with when its shopper left the issuer's challenge page for the widget. */
const CHALLENGE_ABANDONED = '100.390.124';

/**
 * The shopper came back to the widget while an attempt still waited for them on a provider's or
 * issuer's page: that attempt must end before a new one starts, and it ends only where nothing can
 * have moved. The redirect is taken with the same claim a completion uses, so either the
 * shopper's late return completes it or this ends it, never both. A challenge of the gateway's
 * own 3-D Secure came before the acquirer was asked: it is rejected. A provider's page came from
 * the connector's answer, and the shopper may have paid there: the connector's `cancel` decides,
 * and its answer is booked like a status answer. False when the attempt may still succeed (its
 * return won, the connector cannot cancel, or could not): the caller refuses the new attempt.
 * Throws 200.300.404 when the cancel came too late and the first attempt paid the checkout.
 */
export async function cancelWaitingAttempt(deps: PaymentDeps, transactionId: string): Promise<boolean> {
  const open = await findOpenRedirectOf(deps.storage, transactionId);
  if (!open) return false;
  if (!connectorWasCalled(open)) return rejectChallenge(deps, open);
  const transaction = await findTransactionById(deps.storage, transactionId);
  const routed = transaction && (await deps.connectors.forTransaction(transaction));
  if (!transaction || !routed?.connector.cancel) return false;
  const redirect = await claimRedirect(deps.storage, open.id, 'cancel', deps.clock.now());
  if (!redirect) return false;
  const cancel = routed.connector.cancel.bind(routed.connector);
  const answer = await deps.connectors.call(routed.connector, 'cancel', () => cancel(statusRequestOf(transaction, undefined, routed.credentials)), { timeoutMs: deps.connectorTimeoutMs });
  if (answer.kind !== 'success' && answer.kind !== 'declined') {
    await releaseRedirect(deps.storage, redirect.id);
    return false;
  }
  const status = await bookCancelAnswer(deps, transaction, redirect, { ...answer, kind: answer.kind });
  deps.observe.redirect('abandoned');
  if (status === 'success') throw paidAlready(redirect);
  return status === 'rejected';
}

async function rejectChallenge(deps: PaymentDeps, open: ShopperRedirect): Promise<boolean> {
  const now = deps.clock.now();
  const redirect = await claimRedirect(deps.storage, open.id, 'cancel', now);
  if (!redirect) return false;
  const rejected = await deps.storage.transaction(async (tx) => {
    const payment = await rejectWaitingPayment(deps, tx, redirect, CHALLENGE_ABANDONED);
    await endRedirect(tx, redirect.id, 'completed', now);
    return payment;
  });
  deps.observe.redirect('abandoned');
  if (rejected) {
    deps.observe.threeDSecure(challengeOutcome('abandoned'));
    observeLaterOutcome(deps.observe, rejected, CHALLENGE_ABANDONED, false);
  }
  return true;
}

/**
 * The connector's final answer ends the payment (as the status checks would) and the redirect, in
 * one transaction. Answers how the payment stands after it: another end (the status checks) may
 * have come first, and then that one counts.
 */
async function bookCancelAnswer(deps: PaymentDeps, transaction: StoredTransaction, redirect: ShopperRedirect, answer: Parameters<typeof applyResolutionIn>[2]['outcome']): Promise<StoredTransaction['status']> {
  const booked = await deps.storage.transaction(async (tx) => {
    const resolution = await applyResolutionIn(tx, deps, { transactionId: transaction.id, outcome: answer, by: 'status', reason: 'cancel asked before a new widget attempt' });
    await endRedirect(tx, redirect.id, 'completed', deps.clock.now());
    return resolution.applied ? resolution : { applied: false as const, status: (await findTransactionById(tx, transaction.id))?.status ?? 'pending' };
  });
  if (!booked.applied) return booked.status;
  observeLaterOutcome(deps.observe, booked.transaction, answer.code);
  return booked.transaction.status;
}

/** The first attempt paid after all: the checkout takes no other (as for any paid checkout). */
function paidAlready(redirect: ShopperRedirect): GatewayError {
  const checkoutId = String(redirect.resume['checkoutId'] ?? '');
  return new GatewayError(CHECKOUT_GONE, { parameterErrors: [{ name: 'id', value: checkoutId.slice(0, 64), message: 'the checkout is already paid' }] });
}
