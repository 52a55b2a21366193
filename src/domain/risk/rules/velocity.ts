import type { FiredRule } from '../fired-rule.js';
import type { RiskFacts, VelocityKey } from '../facts.js';
import { NO_ATTEMPTS } from '../facts.js';
import type { RiskRuleSet, VelocityMeasure } from '../rule-set.js';

/** Risk validation group 800.120.*: "per account" for card and customer, then per IP, per e-mail. */
const COUNT_CODES: Readonly<Record<VelocityKey, string>> = { card: '800.120.101', customer: '800.120.101', ip: '800.120.102', email: '800.120.103' };
const VOLUME_CODES: Readonly<Record<VelocityKey, string>> = { card: '800.120.201', customer: '800.120.201', ip: '800.120.202', email: '800.120.203' };

/** What a velocity rule's key is in this payment; absent: the rule cannot apply. */
export function velocityKeyValue(facts: Pick<RiskFacts, 'cardFingerprint' | 'email' | 'ip' | 'customerId'>, key: VelocityKey): string | undefined {
  switch (key) {
    case 'card': return facts.cardFingerprint;
    case 'email': return facts.email;
    case 'ip': return facts.ip;
    case 'customer': return facts.customerId;
  }
}

function measured(measure: VelocityMeasure, count: RiskFacts['velocity'][number], thisAmountMinor: bigint): bigint {
  if (measure === 'attempts') return BigInt(count.attempts) + 1n;
  if (measure === 'declines') return BigInt(count.declines);
  return count.amountMinor + thisAmountMinor;
}

/**
 * Velocity within sliding windows: this attempt included, the count of attempts (or the amount)
 * above `max` fires; declines count the earlier declined attempts only (this one has no outcome
 * yet). An amount rule sums its own currency only. Whitelisted payments skip every velocity rule.
 */
export function velocityRules(set: RiskRuleSet, facts: RiskFacts, whitelisted: boolean): FiredRule[] {
  if (whitelisted) return [];
  const fired: FiredRule[] = [];
  set.velocity.forEach((rule, i) => {
    if (velocityKeyValue(facts, rule.key) === undefined) return;
    if (rule.measure === 'amount' && rule.currency !== facts.currency) return;
    const value = measured(rule.measure, facts.velocity[i] ?? NO_ATTEMPTS, facts.amountMinor);
    if (value <= rule.max) return;
    const code = rule.measure === 'amount' ? VOLUME_CODES[rule.key] : COUNT_CODES[rule.key];
    fired.push({ rule: `velocity[${i}].${rule.key}.${rule.measure}`, action: rule.action, points: rule.points, code });
  });
  return fired;
}
