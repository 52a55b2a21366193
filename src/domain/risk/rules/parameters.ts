import { RISK_SYSTEM_DECLINE, type FiredRule } from '../fired-rule.js';
import type { RiskFacts } from '../facts.js';
import type { RiskRuleSet } from '../rule-set.js';

/**
 * The merchant's own risk data: a rule fires when risk.parameters[name] (or risk.channelId,
 * risk.serviceId, under those names) equals its value exactly.
 */
export function parameterRules(set: RiskRuleSet, facts: RiskFacts): FiredRule[] {
  const fired: FiredRule[] = [];
  set.parameters.forEach((rule, i) => {
    if (facts.parameters[rule.name] === rule.equals) fired.push({ rule: `parameters[${i}].${rule.name}`, action: rule.action, points: rule.points, code: RISK_SYSTEM_DECLINE });
  });
  return fired;
}
