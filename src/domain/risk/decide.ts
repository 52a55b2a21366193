import { RISK_SYSTEM_DECLINE, type FiredRule } from './fired-rule.js';
import type { RiskFacts } from './facts.js';
import { clampScore, DEFAULT_POINTS, type RiskAction, type RiskRuleSet } from './rule-set.js';
import { blacklistRules, whitelistRules } from './rules/lists.js';
import { allowListRules, amountLimitRules } from './rules/limits.js';
import { mismatchRules } from './rules/mismatch.js';
import { parameterRules } from './rules/parameters.js';
import { velocityRules } from './rules/velocity.js';
import { testTriggerRules } from './test-triggers.js';

/** 000.400.000 "Transaction succeeded (please review manually due to fraud suspicion)". */
export const REVIEW_CODE = '000.400.000';

export type RiskDecisionKind = 'accept' | 'review' | 'threeDSecure' | 'reject';

export interface RiskDecision {
  readonly kind: RiskDecisionKind;
  /** reject: the fired rule's code; review: REVIEW_CODE; otherwise none. */
  readonly code?: string | undefined;
  readonly score: number;
  readonly fired: readonly FiredRule[];
}

const SEVERITY: readonly RiskAction[] = ['reject', 'threeDSecure', 'review'];

function scoreRule(set: RiskRuleSet, score: number): FiredRule[] {
  if (set.rejectAtScore !== undefined && score >= set.rejectAtScore) return [{ rule: 'rejectAtScore', action: 'reject', points: 0, code: RISK_SYSTEM_DECLINE }];
  if (set.reviewAtScore !== undefined && score >= set.reviewAtScore) return [{ rule: 'reviewAtScore', action: 'review', points: 0, code: REVIEW_CODE }];
  return [];
}

/**
 * Every rule over the facts, in the order that decides which code a rejection gets (the first
 * rejecting rule wins, as in the catalogue): blacklists, allow-lists, amount limits, velocity,
 * mismatches, custom parameters, the test system's data, and last the score thresholds over
 * the points of everything that fired. The most severe action decides: reject, then
 * 3-D Secure, then review. A 3-D Secure step-up of a payment that cannot authenticate (no card,
 * a credit, a merchant-initiated payment) is a review: nothing else can vouch for the shopper.
 */
export function decideRisk(set: RiskRuleSet, facts: RiskFacts, system: 'test' | 'live'): RiskDecision {
  const whitelist = whitelistRules(facts);
  const rules: FiredRule[] = [
    ...blacklistRules(facts),
    ...allowListRules(set, facts),
    ...amountLimitRules(set, facts),
    ...whitelist,
    ...velocityRules(set, facts, whitelist.length > 0),
    ...mismatchRules(set, facts),
    ...parameterRules(set, facts),
    ...(set.testTriggers && system === 'test' ? testTriggerRules(facts) : []),
  ];
  const points = clampScore(rules.reduce((sum, r) => sum + r.points, 0));
  const fired = [...rules, ...scoreRule(set, points)];
  const decisive = SEVERITY.map((action) => fired.find((r) => r.action === action)).find((r) => r !== undefined);
  if (!decisive) return { kind: 'accept', score: points, fired };
  if (decisive.action === 'reject') return { kind: 'reject', code: decisive.code, score: points, fired };
  if (decisive.action === 'threeDSecure' && facts.canAuthenticate) return { kind: 'threeDSecure', score: points, fired };
  return { kind: 'review', code: REVIEW_CODE, score: points, fired };
}

/** Points of an action when a rule names none (re-exported for docs and tests). */
export { DEFAULT_POINTS };
