import { claimExpiredRedirects, type ShopperRedirect } from '../../storage/repositories/shopper-redirects.js';
import { addPendingCheckOf } from '../../storage/repositories/pending-checks.js';
import { lockPendingTransaction } from '../../storage/repositories/transactions.js';
import { settlePendingRegistrationOf } from '../../storage/repositories/registrations.js';
import type { Queryable } from '../../storage/port.js';
import type { OperationDeps, PaymentDeps } from '../deps.js';
import { serialisedView, viewOfStored } from '../payments/payment-response.js';
import { settledPayment, writeSettledPayments } from '../payments/payment-writes.js';
import { completeStandaloneChallenge } from '../three-d-secure/standalone-authentication.js';
import { completedResponse } from './complete-redirect.js';
import type { ChallengeResume } from './open-redirect.js';

import { EXPIRY_CODES } from './expiry-codes.js';

export { EXPIRY_CODES } from './expiry-codes.js';

export type ExpiryDeps = Pick<PaymentDeps, 'storage' | 'clock' | 'ids' | 'threeDSecure'>;

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
  const expired = await deps.storage.transaction(async (tx) => {
    const redirects = await claimExpiredRedirects(tx, now, limit);
    for (const redirect of redirects) if (redirect.transactionId) await endWaitOf(deps, tx, redirect, now);
    return redirects;
  });
  for (const redirect of expired) if (redirect.authenticationId) await completeStandaloneChallenge(deps, redirect, 'expired');
  return expired.length;
}

/** Whether the connector answered this payment already (with this redirect): only its word can end it then. */
export function connectorWasCalled(redirect: Pick<ShopperRedirect, 'purpose'>): boolean {
  return redirect.purpose === 'provider';
}

async function endWaitOf(deps: ExpiryDeps, tx: Queryable, redirect: ShopperRedirect, now: Date): Promise<void> {
  if (connectorWasCalled(redirect)) await addPendingCheckOf(tx, redirect.transactionId!, now);
  else await rejectWaitingPayment(deps, tx, redirect, EXPIRY_CODES[redirect.purpose]);
}

/** Rejects the payment a redirect waits for (if still pending), with its UPDATED notification, in the caller's transaction. */
export async function rejectWaitingPayment(deps: Pick<OperationDeps, 'clock' | 'ids'>, tx: Queryable, redirect: ShopperRedirect, code: string): Promise<void> {
  const transaction = await lockPendingTransaction(tx, redirect.transactionId!);
  if (!transaction) return;
  const outcome = { kind: 'declined' as const, code, resultDetails: { ...transaction.connectorReferences } };
  const response = completedResponse(transaction.response, outcome, undefined);
  const notificationUrl = (redirect.resume as Pick<ChallengeResume, 'notificationUrl'>).notificationUrl;
  await writeSettledPayments(tx, [
    settledPayment(deps, { id: transaction.id, entityId: transaction.entityId, outcome, view: serialisedView(viewOfStored(response)), schemeTransactionId: null, notificationUrl, action: 'UPDATED' }),
  ]);
  await settlePendingRegistrationOf(tx, transaction.id, false, deps.clock.now());
}
