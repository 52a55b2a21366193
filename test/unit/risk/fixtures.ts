import type { RiskFacts } from '../../../src/domain/risk/facts.js';
import { DEFAULT_RULE_SET, type RiskRuleSet } from '../../../src/domain/risk/rule-set.js';

/** A card payment of 92.00 EUR that no rule minds. */
export const BASE_FACTS: RiskFacts = {
  paymentType: 'DB',
  amountMinor: 9200n,
  currency: 'EUR',
  brand: 'VISA',
  methodKind: 'card',
  canAuthenticate: true,
  cardFingerprint: 'f'.repeat(64),
  bin: '420000',
  parameters: {},
  listHits: [],
  velocity: [],
};

export const EMPTY_SET: RiskRuleSet = { ...DEFAULT_RULE_SET, velocity: [], mismatches: [], testTriggers: false };

export function facts(overrides: Partial<RiskFacts>): RiskFacts {
  return { ...BASE_FACTS, ...overrides };
}

export function set(overrides: Partial<RiskRuleSet>): RiskRuleSet {
  return { ...EMPTY_SET, ...overrides };
}
