import type { RiskAction } from './rule-set.js';

/**
 * One rule that fired: stored with the transaction for the operator (never shown to the
 * shopper). `code` is the result code the payment gets when this rule decides a rejection.
 */
export interface FiredRule {
  readonly rule: string;
  readonly action: RiskAction;
  readonly points: number;
  readonly code: string;
}

/** Generic code of the risk system's own rejections (mismatches, custom parameters, the score). */
export const RISK_SYSTEM_DECLINE = '100.400.319';
