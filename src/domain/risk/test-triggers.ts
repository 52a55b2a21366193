import { formatAmount } from '../money.js';
import { RISK_SYSTEM_DECLINE, type FiredRule } from './fired-rule.js';
import type { RiskFacts } from './facts.js';
import { BLACKLIST_CODES } from './rules/lists.js';
import { DEFAULT_POINTS, type RiskAction } from './rule-set.js';

/**
 * The test system's documented risk data (docs/risk.md): values that trigger each decision
 * without configuring anything. Never honoured on the live system. Addresses from the
 * documentation ranges (RFC 2606 .test names, RFC 5737 TEST-NET-1).
 */
export interface TestTrigger {
  readonly field: 'customer.email' | 'customer.ip' | 'card.bin' | 'amount';
  readonly value: string;
  readonly action: RiskAction;
  readonly code: string;
}

export const TEST_TRIGGERS: readonly TestTrigger[] = [
  { field: 'customer.email', value: 'blacklisted@risk.test', action: 'reject', code: BLACKLIST_CODES.email },
  { field: 'customer.email', value: 'review@risk.test', action: 'review', code: '' },
  { field: 'customer.email', value: 'threeds@risk.test', action: 'threeDSecure', code: '' },
  { field: 'customer.ip', value: '192.0.2.66', action: 'reject', code: BLACKLIST_CODES.ip },
  { field: 'customer.ip', value: '192.0.2.77', action: 'review', code: '' },
  { field: 'card.bin', value: '444433', action: 'reject', code: BLACKLIST_CODES.bin },
  { field: 'amount', value: '666.66', action: 'reject', code: RISK_SYSTEM_DECLINE },
  { field: 'amount', value: '555.55', action: 'review', code: '' },
  { field: 'amount', value: '333.33', action: 'threeDSecure', code: '' },
];

function valueOf(facts: RiskFacts, field: TestTrigger['field']): string | undefined {
  switch (field) {
    case 'customer.email': return facts.email;
    case 'customer.ip': return facts.ip;
    case 'card.bin': return facts.bin;
    case 'amount': return formatAmount(facts.amountMinor);
  }
}

/** The triggers this payment's data matches (the amount as its wire text). */
export function testTriggerRules(facts: RiskFacts): FiredRule[] {
  return TEST_TRIGGERS.filter((t) => valueOf(facts, t.field) === t.value).map((t) => ({
    rule: `test.${t.field}=${t.value}`,
    action: t.action,
    points: DEFAULT_POINTS[t.action],
    code: t.code || RISK_SYSTEM_DECLINE,
  }));
}
