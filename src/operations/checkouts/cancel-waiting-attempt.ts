import { claimRedirect, endRedirect, findOpenRedirectOf } from '../../storage/repositories/shopper-redirects.js';
import type { OperationDeps } from '../deps.js';
import { rejectWaitingPayment } from '../redirects/expire-redirects.js';

/** What a payment ends with when its shopper left the provider's or issuer's page for the widget. */
const ABANDONED = {
  /** "cancelled by user" */
  provider: '100.396.101',
  /** "The authentication is cancelled or abandoned" */
  challenge: '100.390.124',
} as const;

/**
 * The shopper came back to the widget while an attempt still waited for them on a provider's or
 * issuer's page: that attempt is cancelled before a new one starts. The redirect is taken with
 * the same claim a completion uses, so either the shopper's late return completes it or this
 * cancels it, never both; false when the return won (the caller refuses the new attempt).
 */
export async function cancelWaitingAttempt(deps: OperationDeps, transactionId: string): Promise<boolean> {
  const open = await findOpenRedirectOf(deps.storage, transactionId);
  const now = deps.clock.now();
  const redirect = open && (await claimRedirect(deps.storage, open.id, 'cancel', now));
  if (!redirect) return false;
  await deps.storage.transaction(async (tx) => {
    await rejectWaitingPayment(deps, tx, redirect, ABANDONED[redirect.purpose]);
    await endRedirect(tx, redirect.id, 'completed', now);
  });
  return true;
}
