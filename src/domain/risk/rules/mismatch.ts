import { RISK_SYSTEM_DECLINE, type FiredRule } from '../fired-rule.js';
import type { RiskFacts } from '../facts.js';
import type { MismatchKind, RiskRuleSet } from '../rule-set.js';

/** The two countries a mismatch rule compares; either unknown: no mismatch can be seen. */
function countriesOf(facts: RiskFacts, kind: MismatchKind): readonly [string | undefined, string | undefined] {
  return kind === 'billing-shipping' ? [facts.billingCountry, facts.shippingCountry] : [facts.billingCountry, facts.binCountry];
}

/** Billing country vs shipping country, billing country vs the card's issuer country. */
export function mismatchRules(set: RiskRuleSet, facts: RiskFacts): FiredRule[] {
  return set.mismatches.flatMap((rule) => {
    const [a, b] = countriesOf(facts, rule.between);
    if (a === undefined || b === undefined || a === b) return [];
    return [{ rule: `mismatch.${rule.between}`, action: rule.action, points: rule.points, code: RISK_SYSTEM_DECLINE }];
  });
}
