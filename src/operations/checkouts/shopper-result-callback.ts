import { callbackNeeded } from '../../domain/checkouts/attempt.js';
import { checkoutResourcePath } from '../../domain/checkouts/checkout-id.js';
import { claimDueCallbacks, findCheckout, setCallbackStates, type StoredCheckout } from '../../storage/repositories/checkouts.js';
import { enqueueJob } from '../../storage/repositories/jobs.js';
import { findTransactionById } from '../../storage/repositories/transactions.js';
import type { Queryable } from '../../storage/port.js';
import type { OperationDeps } from '../deps.js';
import type { NotificationSender, SendOutcome } from '../webhooks/ports.js';
import { shopperResultLocation } from '../redirects/complete-redirect.js';

/** The job that sends one checkout's shopper result callback. */
export const SEND_CHECKOUT_CALLBACK_JOB = 'send-checkout-callback';

/**
 * Takes the checkouts whose callback fell due (each by one process: SKIP LOCKED) and, in the same
 * transaction, queues one sending job for each that needs it: an attempt was made and its payment
 * exists, the merchant never asked for the status, and there is an address. The others are marked
 * as not needed. So the callback is queued once, however many processes sweep.
 */
export async function queueDueCallbacks(deps: OperationDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  return deps.storage.transaction(async (tx) => {
    const due = await claimDueCallbacks(tx, now, limit);
    const queued: string[] = [];
    const notNeeded: string[] = [];
    for (const checkout of due) {
      if (await needsCallback(tx, checkout)) {
        await enqueueJob(tx, { kind: SEND_CHECKOUT_CALLBACK_JOB, payload: { checkoutId: checkout.id }, runAt: now });
        queued.push(checkout.id);
      } else notNeeded.push(checkout.id);
    }
    await setCallbackStates(tx, queued, notNeeded);
    return due.length;
  });
}

async function needsCallback(tx: Queryable, checkout: StoredCheckout): Promise<boolean> {
  if (!callbackNeeded({ attemptId: checkout.attemptId, statusFetchedAt: checkout.statusFetchedAt, shopperResultUrl: checkout.shopperResultUrl ?? undefined })) return false;
  // A claim whose attempt never wrote a payment (refused before it) made no payment to report.
  return checkout.purpose === 'registration' || (await findTransactionById(tx, checkout.attemptId!)) !== undefined;
}

/** The GET OPPWA sends: shopperResultUrl with the checkout's id and status path. */
export function callbackUrl(checkout: Pick<StoredCheckout, 'id' | 'purpose' | 'shopperResultUrl'>): string {
  return shopperResultLocation(checkout.shopperResultUrl!, checkout.id, checkoutResourcePath(checkout.id, checkout.purpose));
}

export type CallbackResult = 'sent' | 'skipped' | 'refused';

/**
 * Sends one queued callback, unless the merchant asked for the status meanwhile. A transport
 * failure or an answer other than 2xx throws: the job is retried with back-off. A refused address
 * (private, not allowed by the operator's rules) is never retried.
 */
export async function sendCheckoutCallback(deps: OperationDeps & { readonly sender: NotificationSender }, checkoutId: string): Promise<CallbackResult> {
  const checkout = await findCheckout(deps.storage, checkoutId);
  if (!checkout || checkout.statusFetchedAt || !checkout.shopperResultUrl) return 'skipped';
  const outcome = await deps.sender.send({ url: callbackUrl(checkout), method: 'GET', headers: { 'User-Agent': 'open-payment-gateway shopper-result-callback' }, body: '' });
  if (outcome.refused) return 'refused';
  if (!delivered(outcome)) throw new Error(`shopper result callback failed: ${outcome.error ?? `HTTP ${outcome.httpStatus}`}`);
  return 'sent';
}

function delivered(outcome: SendOutcome): boolean {
  return outcome.httpStatus !== null && outcome.httpStatus >= 200 && outcome.httpStatus < 300;
}
