import type { PaymentType, TransactionState } from '../transaction.js';
import { isPastCutoff, supportsPaymentType, type LifecyclePolicy } from './policy.js';
import { firstBrokenRule, parentBelongsToEntity, parentIsSettled, parentTypeIsOneOf, type Rejection, type Rule } from './rules.js';

/**
 * A reversal always undoes the whole referenced transaction (the spec: "the customer sees no
 * booking"), so it needs no amount or currency. When the request names them anyway, they must be
 * the whole amount in the payment's currency: a partial reversal is refused, never widened.
 */
export interface ReversalRequest {
  readonly entityId: string;
  /** null or absent when the request had no amount. */
  readonly amountMinor?: bigint | null;
  readonly currency?: string | null;
}

export interface ReversalAccepted {
  readonly ok: true;
  readonly reversedAt: Date;
  /** The amount that will never be booked. */
  readonly reversedMinor: bigint;
}

export type ReversalDecision = ReversalAccepted | Rejection;

interface ReversalContext {
  readonly parent: TransactionState;
  readonly request: ReversalRequest;
  readonly now: Date;
  readonly policy: LifecyclePolicy;
}

export const REVERSIBLE_TYPES: readonly PaymentType[] = ['PA', 'DB', 'CD'];

// 700.400.300 covers "already refunded|reversed, invalid workflow or amount exceeded".
const CANNOT_REVERSE = '700.400.300';
/** "amounts not matched": an amount other than the whole one; the amount-validation group tells the client what to change. */
export const REVERSAL_AMOUNT_NOT_WHOLE = '100.550.701';
/** "currencies not matched": an amount in another currency is not the whole amount either. */
export const REVERSAL_CURRENCY_NOT_PARENTS = '100.550.702';

function amountIsWhole(parent: TransactionState, request: ReversalRequest): string | null {
  if (request.amountMinor !== undefined && request.amountMinor !== null && request.amountMinor !== parent.amountMinor) return REVERSAL_AMOUNT_NOT_WHOLE;
  if (request.currency !== undefined && request.currency !== null && request.currency !== parent.currency) return REVERSAL_CURRENCY_NOT_PARENTS;
  return null;
}

const REVERSAL_RULES: readonly Rule<ReversalContext>[] = [
  ({ parent, request }) => parentBelongsToEntity(parent, request.entityId),
  ({ parent }) => parentTypeIsOneOf(parent, REVERSIBLE_TYPES, '700.300.100'),
  ({ parent }) => parentIsSettled(parent),
  ({ policy }) => (policy.supportsReversal && supportsPaymentType(policy, 'RV') ? null : '600.200.400'),
  ({ parent }) => (parent.reversedAt === null ? null : CANNOT_REVERSE),
  ({ parent }) => (parent.refundedMinor > 0n ? CANNOT_REVERSE : null),
  // A capture books money, so "no booking" is no longer possible: close the PA with a FINAL
  // capture to release the rest, and refund what was captured.
  ({ parent }) => (parent.capturedMinor > 0n ? CANNOT_REVERSE : null),
  ({ parent, now, policy }) => (isPastCutoff(parent.createdAt, now, policy.reversalCutoffMinutes) ? '700.300.700' : null),
  // Last: a payment that cannot be reversed at all says so, whatever amount was asked for.
  ({ parent, request }) => amountIsWhole(parent, request),
];

/**
 * May `parent`, a successful PA, DB or CD, be reversed at `now`? Only once, only while nothing
 * of it was captured or refunded, only before the connector's cut-off, and only in full.
 */
export function decideReversal(
  parent: TransactionState,
  request: ReversalRequest,
  now: Date,
  policy: LifecyclePolicy,
): ReversalDecision {
  const rejection = firstBrokenRule(REVERSAL_RULES, { parent, request, now, policy });
  if (rejection) return rejection;
  return { ok: true, reversedAt: now, reversedMinor: parent.amountMinor };
}

/** The transaction after an accepted reversal; a reversed PA can never be captured. */
export function applyReversal(parent: TransactionState, accepted: ReversalAccepted): TransactionState {
  const captureClosed = parent.paymentType === 'PA' ? true : parent.captureClosed;
  return { ...parent, reversedAt: accepted.reversedAt, captureClosed, refundClosed: true };
}
