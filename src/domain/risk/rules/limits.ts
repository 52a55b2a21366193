import type { FiredRule } from '../fired-rule.js';
import type { RiskFacts } from '../facts.js';
import { DEFAULT_POINTS, type RiskRuleSet } from '../rule-set.js';

/** 100.550.312 "Amount is outside allowed ticket size boundaries". */
export const AMOUNT_LIMIT_CODE = '100.550.312';
/** 600.200.500 "not configured for this currency or sub type (country or brand)". */
export const CURRENCY_NOT_ALLOWED_CODE = '600.200.500';
/** 100.400.021 "transaction declined for country". */
export const COUNTRY_NOT_ALLOWED_CODE = '100.400.021';

/** Per-transaction amount limits of the payment's currency (min and max both inclusive). */
export function amountLimitRules(set: RiskRuleSet, facts: RiskFacts): FiredRule[] {
  const fired: FiredRule[] = [];
  set.amountLimits.forEach((limit, i) => {
    if (limit.currency !== facts.currency) return;
    const below = limit.minMinor !== undefined && facts.amountMinor < limit.minMinor;
    const above = limit.maxMinor !== undefined && facts.amountMinor > limit.maxMinor;
    if (below || above) fired.push({ rule: `amountLimits[${i}].${below ? 'min' : 'max'}`, action: limit.action, points: limit.points, code: AMOUNT_LIMIT_CODE });
  });
  return fired;
}

/**
 * Allow-lists: a currency outside `currencies`, or a billing or BIN issuer country outside
 * `countries`, rejects. A payment without a known country passes the country list: refusing
 * every payment without billing data would be a rule of its own, not an allow-list.
 */
export function allowListRules(set: RiskRuleSet, facts: RiskFacts): FiredRule[] {
  const fired: FiredRule[] = [];
  if (set.currencies && !set.currencies.includes(facts.currency)) {
    fired.push({ rule: 'currencies', action: 'reject', points: DEFAULT_POINTS.reject, code: CURRENCY_NOT_ALLOWED_CODE });
  }
  const { countries } = set;
  if (countries) {
    for (const [source, country] of [['billing', facts.billingCountry], ['bin', facts.binCountry]] as const) {
      if (country !== undefined && !countries.includes(country)) {
        fired.push({ rule: `countries.${source}`, action: 'reject', points: DEFAULT_POINTS.reject, code: COUNTRY_NOT_ALLOWED_CODE });
      }
    }
  }
  return fired;
}
