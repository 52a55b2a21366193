import type { BrandOfferRule, RiskDecisionKindName, RiskRuleSet } from './rule-set.js';

/** A shopper's risk profile when the widget session starts: the engine's decision and score then. */
export interface RiskProfile {
  readonly kind: RiskDecisionKindName;
  readonly score: number;
}

function matches(rule: BrandOfferRule, profile: RiskProfile): boolean {
  if (rule.profiles !== undefined && !rule.profiles.includes(profile.kind)) return false;
  if (rule.scoreAtLeast !== undefined && profile.score < rule.scoreAtLeast) return false;
  return true;
}

/**
 * The brands the rule set's `brandOffer` rows hide from a shopper of this profile (every
 * matching row counts), sorted and each once; none when the rule set has no such rows.
 */
export function hiddenBrands(set: Pick<RiskRuleSet, 'brandOffer'>, profile: RiskProfile): string[] {
  const hidden = new Set<string>();
  for (const rule of set.brandOffer ?? []) if (matches(rule, profile)) for (const brand of rule.hide) hidden.add(brand);
  return [...hidden].sort();
}
