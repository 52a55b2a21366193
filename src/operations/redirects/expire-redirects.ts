import { claimExpiredRedirects, type ShopperRedirect } from '../../storage/repositories/shopper-redirects.js';
import { addPendingCheckOf } from '../../storage/repositories/pending-checks.js';
import { lockPendingTransaction, type StoredTransaction } from '../../storage/repositories/transactions.js';
import { settlePendingRegistrationOf } from '../../storage/repositories/registrations.js';
import type { Queryable } from '../../storage/port.js';
import type { OperationDeps, PaymentDeps } from '../deps.js';
import { serialisedView, viewOfStored } from '../payments/payment-response.js';
import { settledPayment, writeSettledPayments } from '../payments/payment-writes.js';
import { completeStandaloneChallenge } from '../three-d-secure/standalone-authentication.js';
import { completedResponse } from './complete-redirect.js';
import type { ChallengeResume } from './open-redirect.js';
import { observeLaterOutcome } from '../payments/observe-payment.js';
import { challengeOutcome } from '../three-d-secure/observe-authentication.js';

import { EXPIRY_CODES } from './expiry-codes.js';

export { EXPIRY_CODES } from './expiry-codes.js';

export type ExpiryDeps = Pick<PaymentDeps, 'storage' | 'clock' | 'ids' | 'threeDSecure'> & Partial<Pick<PaymentDeps, 'observe'>>;

/**
 * Ends up to `limit` redirects past their time. What becomes of a redirect's payment depends on
 * whether its connector was called already. A provider's page (an asynchronous method, or a
 * connector's own 3-D Secure) came from the connector's answer: the shopper may have paid there
 * and closed the window, so the payment stays pending and goes to the status checks at once
 * (operations/pending/), which ask the connector and book what it says. The gateway's own 3-D
 * Secure challenge comes before the acquirer is asked: nothing can have moved, and the payment is
 * rejected with its PAYMENT notification (UPDATED). Each happens in the transaction that takes
 * the redirect, or not at all. A standalone authentication is rejected right after (it moves no
 * money). A completion that took the redirect first wins (the claim skips it), and one that comes
 * after finds it expired.
 */

export async function expireRedirects(deps: ExpiryDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  const { expired, rejected } = await deps.storage.transaction(async (tx) => {
    const redirects = await claimExpiredRedirects(tx, now, limit);
    const ended: StoredTransaction[] = [];
    for (const redirect of redirects) {
      const payment = redirect.transactionId ? await endWaitOf(deps, tx, redirect, now) : undefined;
      if (payment) ended.push(payment);
    }
    return { expired: redirects, rejected: ended };
  });
  observeExpiry(deps, expired, rejected);
  for (const redirect of expired) if (redirect.authenticationId) await completeStandaloneChallenge(deps, redirect, 'expired');
  return expired.length;
}

/** Once committed: every redirect expired, and each payment a challenge's expiry rejected (a failed authentication, ended without its connector). */
function observeExpiry(deps: ExpiryDeps, expired: readonly ShopperRedirect[], rejected: readonly StoredTransaction[]): void {
  for (let i = 0; i < expired.length; i++) deps.observe?.redirect('expired');
  for (const payment of rejected) {
    deps.observe?.threeDSecure(challengeOutcome('expired'));
    observeLaterOutcome(deps.observe, payment, payment.resultCode, false);
  }
}

/** Whether the connector answered this payment already (with this redirect): only its word can end it then. */
export function connectorWasCalled(redirect: Pick<ShopperRedirect, 'purpose'>): boolean {
  return redirect.purpose === 'provider';
}

/** The payment the expiry rejected, if it did (a provider's page goes to the status checks instead). */
async function endWaitOf(deps: ExpiryDeps, tx: Queryable, redirect: ShopperRedirect, now: Date): Promise<StoredTransaction | undefined> {
  if (connectorWasCalled(redirect)) {
    await addPendingCheckOf(tx, redirect.transactionId!, now);
    return undefined;
  }
  return rejectWaitingPayment(deps, tx, redirect, EXPIRY_CODES[redirect.purpose]);
}

/**
 * Rejects the payment a redirect waits for (if still pending), with its UPDATED notification, in
 * the caller's transaction. Answers the payment as rejected, for the caller to count once committed.
 */
export async function rejectWaitingPayment(deps: Pick<OperationDeps, 'clock' | 'ids'>, tx: Queryable, redirect: ShopperRedirect, code: string): Promise<StoredTransaction | undefined> {
  const transaction = await lockPendingTransaction(tx, redirect.transactionId!);
  if (!transaction) return undefined;
  const outcome = { kind: 'declined' as const, code, resultDetails: { ...transaction.connectorReferences } };
  const response = completedResponse(transaction.response, outcome, undefined);
  const notificationUrl = (redirect.resume as Pick<ChallengeResume, 'notificationUrl'>).notificationUrl;
  await writeSettledPayments(tx, [
    settledPayment(deps, { id: transaction.id, entityId: transaction.entityId, outcome, view: serialisedView(viewOfStored(response)), schemeTransactionId: null, notificationUrl, action: 'UPDATED' }),
  ]);
  await settlePendingRegistrationOf(tx, transaction.id, false, deps.clock.now());
  return { ...transaction, status: 'rejected', resultCode: code };
}
