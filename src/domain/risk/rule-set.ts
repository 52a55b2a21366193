import type { VelocityKey } from './facts.js';

/**
 * What a fired rule asks for. `score` only adds points: the score thresholds decide.
 * Severity, highest first: reject, threeDSecure, review, score.
 */
export type RiskAction = 'reject' | 'threeDSecure' | 'review' | 'score';
export const RISK_ACTIONS: readonly RiskAction[] = ['reject', 'threeDSecure', 'review', 'score'];

/** Points a fired rule adds when its row names none: the score says how sure the engine is. */
export const DEFAULT_POINTS: Readonly<Record<RiskAction, number>> = { reject: 1000, threeDSecure: 300, review: 500, score: 100 };

export type VelocityMeasure = 'attempts' | 'declines' | 'amount';
export const VELOCITY_MEASURES: readonly VelocityMeasure[] = ['attempts', 'declines', 'amount'];

export interface VelocityRule {
  readonly key: VelocityKey;
  readonly measure: VelocityMeasure;
  readonly windowMinutes: number;
  /** attempts, declines: a count; amount: minor units in the payment's currency. */
  readonly max: bigint;
  /** amount: the currency the limit is in (other currencies are not summed). */
  readonly currency?: string | undefined;
  readonly action: RiskAction;
  readonly points: number;
}

export interface AmountLimit {
  readonly currency: string;
  readonly minMinor?: bigint | undefined;
  readonly maxMinor?: bigint | undefined;
  readonly action: RiskAction;
  readonly points: number;
}

export type MismatchKind = 'billing-shipping' | 'billing-card';
export const MISMATCH_KINDS: readonly MismatchKind[] = ['billing-shipping', 'billing-card'];

export interface MismatchRule {
  readonly between: MismatchKind;
  readonly action: RiskAction;
  readonly points: number;
}

/** A rule over the request's risk.parameters[name] (risk.channelId and risk.serviceId too). */
export interface ParameterRule {
  readonly name: string;
  readonly equals: string;
  readonly action: RiskAction;
  readonly points: number;
}

/**
 * Active payment method selection (core.md, widget item 7): brands the widget does not offer a
 * shopper whose risk profile at the start of the widget session matches. The profile is the
 * engine's decision and score over what is known then (no card yet); a row needs `profiles`,
 * `scoreAtLeast` or both (both must hold).
 */
export interface BrandOfferRule {
  readonly profiles?: readonly RiskDecisionKindName[] | undefined;
  readonly scoreAtLeast?: number | undefined;
  readonly hide: readonly string[];
}

/** decide.ts's RiskDecisionKind, named here so that the rule set does not import the engine. */
export type RiskDecisionKindName = 'accept' | 'review' | 'threeDSecure' | 'reject';
export const RISK_PROFILES: readonly RiskDecisionKindName[] = ['accept', 'review', 'threeDSecure', 'reject'];

export interface RiskRuleSet {
  /** false: no rule runs, nothing is counted and no risk.score is answered. */
  readonly enabled: boolean;
  /** The score from which a payment is reviewed / rejected (100.400.319) whatever fired. */
  readonly reviewAtScore?: number | undefined;
  readonly rejectAtScore?: number | undefined;
  /** Allow-lists: absent means every currency / billing country. */
  readonly currencies?: readonly string[] | undefined;
  readonly countries?: readonly string[] | undefined;
  readonly amountLimits: readonly AmountLimit[];
  readonly velocity: readonly VelocityRule[];
  readonly mismatches: readonly MismatchRule[];
  readonly parameters: readonly ParameterRule[];
  /** BIN → issuer country (ISO alpha-2): the gateway ships no BIN database, the operator names what matters. */
  readonly binCountries: Readonly<Record<string, string>>;
  /** The documented test data (docs/risk.md) triggers decisions; honoured on the test system only. */
  readonly testTriggers: boolean;
  /** Brands hidden from shoppers of a risk profile when the widget session starts (none: every brand). */
  readonly brandOffer?: readonly BrandOfferRule[] | undefined;
}

/**
 * The rule set of an entity nobody configured: counts every attempt and scores fast repeats,
 * but decides nothing on its own (lists and the test data do), so that turning risk on changes
 * no answer but the score until the operator sets limits.
 */
export const DEFAULT_RULE_SET: RiskRuleSet = Object.freeze<RiskRuleSet>({
  enabled: true,
  amountLimits: [],
  velocity: [
    { key: 'card', measure: 'attempts', windowMinutes: 10, max: 20n, action: 'score', points: 100 },
    { key: 'ip', measure: 'attempts', windowMinutes: 60, max: 100n, action: 'score', points: 100 },
  ],
  mismatches: [{ between: 'billing-shipping', action: 'score', points: 50 }],
  parameters: [],
  binCountries: {},
  testTriggers: true,
});

export const SCORE_MIN = -99_999;
export const SCORE_MAX = 99_999;

export function clampScore(score: number): number {
  return Math.max(SCORE_MIN, Math.min(SCORE_MAX, Math.trunc(score)));
}
