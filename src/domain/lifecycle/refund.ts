import type { PaymentType, TransactionState } from '../transaction.js';
import { supportsPaymentType, type LifecyclePolicy } from './policy.js';
import {
  amountIsPositive,
  currencyIsPresent,
  currencyMatchesParent,
  firstBrokenRule,
  parentBelongsToEntity,
  parentIsSettled,
  parentTypeIsOneOf,
  type AmountRequest,
  type Rejection,
  type Rule,
} from './rules.js';

/** The totals to write to the refunded transaction when a refund is accepted. */
export interface RefundAccepted {
  readonly ok: true;
  readonly amountMinor: bigint;
  readonly refundedMinor: bigint;
  /** No refund may follow: sequence=FINAL, or everything is refunded. */
  readonly refundClosed: boolean;
}

export type RefundDecision = RefundAccepted | Rejection;

interface RefundContext {
  readonly parent: TransactionState;
  readonly request: AmountRequest;
  readonly policy: LifecyclePolicy;
}

/**
 * Money moved by these types can be refunded. A PA moves none: its captures (CP) are refunded,
 * each up to its own amount, so one capture can never be refunded twice through the PA.
 */
export const REFUNDABLE_TYPES: readonly PaymentType[] = ['DB', 'CD', 'CP'];

// 700.400.200 covers "refund volume exceeded or tx reversed or invalid workflow" in the catalogue.
const CANNOT_REFUND = '700.400.200';

const REFUND_RULES: readonly Rule<RefundContext>[] = [
  ({ parent, request }) => parentBelongsToEntity(parent, request.entityId),
  ({ request }) => amountIsPositive(request.amountMinor),
  ({ request }) => currencyIsPresent(request.currency),
  ({ parent }) => parentTypeIsOneOf(parent, REFUNDABLE_TYPES, '700.400.520'),
  ({ parent }) => parentIsSettled(parent),
  ({ policy }) => (policy.supportsRefund && supportsPaymentType(policy, 'RF') ? null : '600.200.400'),
  ({ parent, request }) => currencyMatchesParent(parent, request.currency),
  ({ parent }) => (parent.reversedAt === null ? null : CANNOT_REFUND),
  ({ parent }) => (parent.refundClosed ? CANNOT_REFUND : null),
  ({ parent, request }) => (parent.refundedMinor + (request.amountMinor ?? 0n) > parent.amountMinor ? CANNOT_REFUND : null),
];

/**
 * May `request` refund (part of) `parent`, a DB, CD or CP? Several partial refunds are allowed,
 * never above the amount less what is already refunded; nothing after a reversal or after a
 * refund with sequence=FINAL. `policy` is the parent's connector's.
 */
export function decideRefund(parent: TransactionState, request: AmountRequest, policy: LifecyclePolicy): RefundDecision {
  const rejection = firstBrokenRule(REFUND_RULES, { parent, request, policy });
  if (rejection) return rejection;
  const amountMinor = request.amountMinor!;
  const refundedMinor = parent.refundedMinor + amountMinor;
  const refundClosed = request.final || refundedMinor === parent.amountMinor;
  return { ok: true, amountMinor, refundedMinor, refundClosed };
}

/** The refunded transaction after an accepted refund. */
export function applyRefund(parent: TransactionState, accepted: RefundAccepted): TransactionState {
  return { ...parent, refundedMinor: accepted.refundedMinor, refundClosed: accepted.refundClosed };
}
