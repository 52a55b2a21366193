/**
 * Whether a checkout may take another attempt (a widget post), from what became of its latest.
 * A declined attempt leaves the checkout payable: the merchant's result page may show the widget
 * again with the same id. A successful one closes it. An attempt still open blocks the next,
 * except one that only waits for its shopper on a provider's or issuer's page: the shopper came
 * back to the widget instead, so that redirect is cancelled first (exactly one of cancel and
 * completion wins, by the redirect's own claim) and the new attempt goes on.
 */
export type CheckoutState = 'open' | 'attempting' | 'completed';

export type AttemptStatus = 'none' | 'success' | 'declined' | 'pending-with-redirect' | 'pending';

export interface CheckoutSnapshot {
  readonly state: CheckoutState;
  readonly expiresAt: Date;
  /** When the latest attempt was claimed; an attempt whose process died leaves it behind. */
  readonly attemptStartedAt: Date | null;
  /** Attempts claimed so far. */
  readonly attempts: number;
}

export type AttemptDecision =
  | { readonly kind: 'proceed' }
  | { readonly kind: 'cancel-redirect-then-proceed' }
  | { readonly kind: 'refuse'; readonly code: string; readonly reason: string };

/** The checkout id no longer works: expired or already paid (OPPWA answers 200.300.404). */
export const CHECKOUT_GONE = '200.300.404';
/** Another attempt of the same checkout is being processed. */
export const ATTEMPT_IN_PROGRESS = '800.700.100';

/** "referenced session contains too many transactions" */
export const TOO_MANY_ATTEMPTS = '700.500.001';

/**
 * Most attempts one checkout takes. Declines leave a checkout payable, so without a bound one
 * leaked checkout id would let anyone test stolen card numbers against the merchant's acquirer.
 */
export const MAX_ATTEMPTS_PER_CHECKOUT = 10;

/**
 * A claim whose attempt never wrote its transaction in this time belongs to a process that died
 * between the two: the transaction is written before the connector is asked, within seconds.
 */
export const ORPHANED_CLAIM_MS = 120_000;

export function decideAttempt(checkout: CheckoutSnapshot, latest: AttemptStatus, now: Date): AttemptDecision {
  if (checkout.expiresAt <= now) return { kind: 'refuse', code: CHECKOUT_GONE, reason: 'the checkout expired' };
  if (checkout.state === 'completed' || latest === 'success') return { kind: 'refuse', code: CHECKOUT_GONE, reason: 'the checkout is already paid' };
  if (checkout.attempts >= MAX_ATTEMPTS_PER_CHECKOUT) return { kind: 'refuse', code: TOO_MANY_ATTEMPTS, reason: `a checkout takes at most ${MAX_ATTEMPTS_PER_CHECKOUT} attempts` };
  if (checkout.state === 'open' || latest === 'declined') return { kind: 'proceed' };
  if (latest === 'pending-with-redirect') return { kind: 'cancel-redirect-then-proceed' };
  if (latest === 'none' && checkout.attemptStartedAt && now.getTime() - checkout.attemptStartedAt.getTime() > ORPHANED_CLAIM_MS) return { kind: 'proceed' };
  // 'none' while attempting: the claim was taken and the attempt's transaction is not written
  // yet (or its process died before writing it). 'pending': the acquirer has not answered.
  return { kind: 'refuse', code: ATTEMPT_IN_PROGRESS, reason: 'another payment of this checkout is being processed' };
}

/** The state a checkout keeps after an attempt ended this way. */
export function stateAfterAttempt(status: AttemptStatus): CheckoutState {
  if (status === 'success') return 'completed';
  if (status === 'declined') return 'open';
  return 'attempting';
}

/** When the 29-minute callback of a checkout is due, and when the checkout expires. */
export function checkoutTimes(createdAt: Date, lifetimeMs: number, callbackAfterMs: number): { expiresAt: Date; callbackDueAt: Date } {
  return { expiresAt: new Date(createdAt.getTime() + lifetimeMs), callbackDueAt: new Date(createdAt.getTime() + callbackAfterMs) };
}

/**
 * Whether the shopper result callback goes out: an attempt was made, the merchant never asked
 * for its status, and there is an address to call.
 */
export function callbackNeeded(checkout: { readonly attemptId: string | null; readonly statusFetchedAt: Date | null; readonly shopperResultUrl: string | undefined }): boolean {
  return checkout.attemptId !== null && checkout.statusFetchedAt === null && checkout.shopperResultUrl !== undefined;
}
