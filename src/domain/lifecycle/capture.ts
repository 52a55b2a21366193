import type { TransactionState } from '../transaction.js';
import { isPastCutoff, supportsPaymentType, type LifecyclePolicy } from './policy.js';
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

/** The totals to write to the PA when a capture is accepted. */
export interface CaptureAccepted {
  readonly ok: true;
  readonly amountMinor: bigint;
  readonly capturedMinor: bigint;
  readonly captureCount: number;
  /** No capture may follow: sequence=FINAL, the numberOfCaptures limit, or nothing left. */
  readonly captureClosed: boolean;
  /** Authorised but never to be captured, because the PA closed early; the hold can be released. */
  readonly releasedMinor: bigint;
}

export type CaptureDecision = CaptureAccepted | Rejection;

interface CaptureContext {
  readonly parent: TransactionState;
  readonly request: AmountRequest;
  readonly now: Date;
  readonly policy: LifecyclePolicy;
}

// 700.400.100 covers "PA value exceeded, PA reverted or invalid workflow" in the catalogue.
const CANNOT_CAPTURE = '700.400.100';

/** In precedence order: request shape, then the parent's type and state, then the amounts. */
const CAPTURE_RULES: readonly Rule<CaptureContext>[] = [
  ({ parent, request }) => parentBelongsToEntity(parent, request.entityId),
  ({ request }) => amountIsPositive(request.amountMinor),
  ({ request }) => currencyIsPresent(request.currency),
  ({ parent }) => parentTypeIsOneOf(parent, ['PA'], '700.400.510'),
  // "cannot capture (Not supported by authorization system)": the connector's acquirer takes no captures.
  ({ policy }) => (supportsPaymentType(policy, 'CP') ? null : '700.400.101'),
  ({ parent }) => parentIsSettled(parent),
  ({ parent, request }) => currencyMatchesParent(parent, request.currency),
  ({ parent }) => (parent.reversedAt === null ? null : CANNOT_CAPTURE),
  ({ parent, now, policy }) => (isPastCutoff(parent.createdAt, now, policy.captureCutoffMinutes) ? '700.300.400' : null),
  ({ parent }) => (parent.captureClosed ? CANNOT_CAPTURE : null),
  ({ parent }) => (parent.maxCaptures !== null && parent.captureCount >= parent.maxCaptures ? CANNOT_CAPTURE : null),
  ({ parent, request }) => (parent.capturedMinor + (request.amountMinor ?? 0n) > parent.amountMinor ? CANNOT_CAPTURE : null),
];

/**
 * May `request` capture from the PA `parent`? Several partial captures are allowed, up to the
 * PA's numberOfCaptures (no limit but the authorised amount when it was absent), never above the
 * authorised amount; a capture with sequence=FINAL closes the PA.
 */
export function decideCapture(
  parent: TransactionState,
  request: AmountRequest,
  now: Date,
  policy: LifecyclePolicy,
): CaptureDecision {
  const rejection = firstBrokenRule(CAPTURE_RULES, { parent, request, now, policy });
  if (rejection) return rejection;
  const amountMinor = request.amountMinor!;
  const capturedMinor = parent.capturedMinor + amountMinor;
  const captureCount = parent.captureCount + 1;
  const limitReached = parent.maxCaptures !== null && captureCount >= parent.maxCaptures;
  const exhausted = capturedMinor === parent.amountMinor;
  const captureClosed = request.final || limitReached || exhausted;
  const releasedMinor = captureClosed ? parent.amountMinor - capturedMinor : 0n;
  return { ok: true, amountMinor, capturedMinor, captureCount, captureClosed, releasedMinor };
}

/** The PA after an accepted capture. */
export function applyCapture(parent: TransactionState, accepted: CaptureAccepted): TransactionState {
  return {
    ...parent,
    capturedMinor: accepted.capturedMinor,
    captureCount: accepted.captureCount,
    captureClosed: accepted.captureClosed,
  };
}
