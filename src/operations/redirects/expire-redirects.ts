import { claimExpiredRedirects, type ShopperRedirect } from '../../storage/repositories/shopper-redirects.js';
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
 * Ends up to `limit` redirects past their time. A payment's redirect ends with its payment in one
 * transaction: the redirect leaves 'open' and the payment (if still pending) is rejected with its
 * PAYMENT notification (UPDATED), or neither happens. A standalone authentication is rejected
 * right after (it moves no money and sends no notification). A completion that took the redirect
 * first wins (the claim skips it), and one that comes after finds it expired.
 */

export async function expireRedirects(deps: ExpiryDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  const expired = await deps.storage.transaction(async (tx) => {
    const redirects = await claimExpiredRedirects(tx, now, limit);
    for (const redirect of redirects) if (redirect.transactionId) await rejectWaitingPayment(deps, tx, redirect, EXPIRY_CODES[redirect.purpose]);
    return redirects;
  });
  for (const redirect of expired) if (redirect.authenticationId) await completeStandaloneChallenge(deps, redirect, 'expired');
  return expired.length;
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
