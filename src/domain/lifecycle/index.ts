export { decideCapture, applyCapture, type CaptureAccepted, type CaptureDecision } from './capture.js';
export { decideRefund, applyRefund, REFUNDABLE_TYPES, type RefundAccepted, type RefundDecision } from './refund.js';
export {
  decideReversal,
  applyReversal,
  REVERSIBLE_TYPES,
  type ReversalAccepted,
  type ReversalDecision,
  type ReversalRequest,
} from './reversal.js';
export { DEFAULT_LIFECYCLE_POLICY, isPastCutoff, supportsPaymentType, type LifecyclePolicy } from './policy.js';
export type { AmountRequest, Rejection } from './rules.js';
