import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import type { NormalizedOutcome } from '../../connectors/connector.js';
import { decideRisk, REVIEW_CODE, type RiskDecision } from '../../domain/risk/decide.js';
import { VELOCITY_KEYS, type RiskFacts, type VelocityKey } from '../../domain/risk/facts.js';
import type { RiskRuleSet } from '../../domain/risk/rule-set.js';
import { canonicalEmail } from '../../domain/risk/canonical-email.js';
import { velocityKeyHash } from '../../domain/risk/keys.js';
import { velocityKeyValue } from '../../domain/risk/rules/velocity.js';
import type { ThreeDSecureRequirement } from '../../domain/three-d-secure/requirement.js';
import type { Queryable } from '../../storage/port.js';
import type { CountProbe, FactsRead } from '../../storage/repositories/risk-attempts.js';
import { evaluationJson } from '../../storage/repositories/risk-evaluations.js';
import type { PaymentDeps } from '../deps.js';
import type { RiskCheck } from '../payments/payment-writes.js';
import type { ResolvedPaymentMethod } from '../payments/payment-method.js';
import type { PaymentAuthentication } from '../three-d-secure/authenticate-payment.js';
import { enqueueNotification } from '../webhooks/enqueue-notification.js';
import { listProbesOf, requestFacts, type RequestFacts } from './payment-facts.js';
import type { EffectiveRiskSettings } from './risk-settings.js';

export interface PaymentRiskInput {
  readonly entityId: string;
  readonly transactionId: string;
  readonly request: PaymentRequest;
  readonly method: ResolvedPaymentMethod;
  readonly paymentType: 'PA' | 'DB' | 'CD';
  readonly amountMinor: bigint;
  readonly currency: string;
}

type OnOutcome = (tx: Queryable, outcome: NormalizedOutcome, transactionId: string) => Promise<string | undefined>;

/**
 * A checked payment's risk inputs, ready before its pending row: what its statement reads (the
 * entity's lists, the velocity counts) and records (the attempt) with the row.
 */
export interface PreparedRisk {
  readonly settings: EffectiveRiskSettings;
  readonly facts: RequestFacts;
  readonly check: RiskCheck;
}

/** What the risk decision changes in a payment's flow (create-payment.ts uses each once). */
export interface PaymentRisk {
  readonly decision?: RiskDecision | undefined;
  /** The rules that fired, kept with the payment's outcome for the operator (absent when none did). */
  readonly evaluation?: object | undefined;
  /** A rejection, as the refusal the 3-D Secure step would give: stored declined with the rule's code. */
  readonly refusal?: PaymentAuthentication | undefined;
  /** A step-up: the payment must authenticate whatever the entity's 3-D Secure setting. */
  readonly threeDSecureRequirement?: ThreeDSecureRequirement | undefined;
  /** The response's echo with risk.score added. */
  echo(echo: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>>;
  /** The outcome hook with the RISK notification added (rejections and reviews), in the outcome's transaction. */
  onOutcome(hook: OnOutcome | undefined): OnOutcome | undefined;
  /** A connector's success of a reviewed payment becomes the manual-review code. */
  reviewed(outcome: NormalizedOutcome): NormalizedOutcome;
}

/**
 * The most attempts of one key a count reads (newest first): a key past this many attempts in a
 * window is far past any sane limit, and reading more would let one hot card slow every payment.
 */
export const SCAN_MAX = 10_000;

const ALWAYS: ThreeDSecureRequirement = Object.freeze({ mode: 'always' });

/** The risk of a payment nobody checks: no score, no change to its flow. */
export const UNCHECKED: PaymentRisk = Object.freeze({
  echo: (echo: Readonly<Record<string, unknown>>) => echo,
  onOutcome: (hook: OnOutcome | undefined) => hook,
  reviewed: (outcome: NormalizedOutcome) => outcome,
});

/** The kinds of key the rule set's velocity rules count, each once, in VELOCITY_KEYS' order. */
export function countedKeys(ruleSet: RiskRuleSet): VelocityKey[] {
  return VELOCITY_KEYS.filter((key) => ruleSet.velocity.some((rule) => rule.key === key));
}

/** The velocity counts the rule set asks for, and the keys this attempt is recorded under. */
export function velocityProbes(settings: EffectiveRiskSettings, facts: RequestFacts, now: Date): { counts: CountProbe[]; keys: string[] } {
  let email: string | undefined;
  const hash = (key: (typeof VELOCITY_KEYS)[number]) => {
    const value = velocityKeyValue(facts, key);
    if (value === undefined) return undefined;
    // An address is counted in its one form (bad+1@…, bad+2@… are one shopper), worked out only
    // when a rule counts addresses, and once.
    if (key === 'email') email ??= canonicalEmail(value);
    return velocityKeyHash(settings.merchantId, key, key === 'email' ? email! : value);
  };
  const counts: CountProbe[] = [];
  settings.ruleSet.velocity.forEach((rule, i) => {
    const key = hash(rule.key);
    if (key === undefined) return;
    // Attempts: one past the limit is enough to know; declines and amounts need the window's rows.
    const cap = rule.measure === 'attempts' ? Math.min(Number(rule.max) + 1, SCAN_MAX) : SCAN_MAX;
    counts.push({ i, key, since: new Date(now.getTime() - rule.windowMinutes * 60_000), cap, declines: rule.measure === 'declines' });
  });
  // Only the keys a rule counts are recorded: each is a row and two index entries per payment
  // (recording all four cost a tenth of the payments per second), so a rule added later counts
  // the attempts made after it, not those before (docs/risk.md).
  const keys = countedKeys(settings.ruleSet).map(hash).filter((k): k is string => k !== undefined);
  return { counts, keys };
}

/** Counts and hits as the rules read them, the counts aligned with the rule set's velocity rules. */
export function factsWith(facts: RequestFacts, settings: EffectiveRiskSettings, read: FactsRead): RiskFacts {
  const velocity = settings.ruleSet.velocity.map((_, i) => {
    const row = read.counts.find((c) => c.i === i);
    return row ? { attempts: row.attempts, declines: row.declines, amountMinor: BigInt(row.amount) } : { attempts: 0, declines: 0, amountMinor: 0n };
  });
  // The spread last: properties written after a spread are slow on Node 20 (docs/performance.md).
  return { listHits: read.hits.map((h) => ({ list: h.list, kind: h.kind as RiskFacts['listHits'][number]['kind'], source: h.source ?? undefined })), velocity, ...facts };
}

/**
 * The risk engine's first half, before the connector of a PA, DB or CD: the request's facts, and
 * the read and the attempt that go with the payment's pending row (insertPending). Undefined for
 * an entity whose rule set is disabled (not checked: no score in the answer).
 */
export async function prepareRisk(deps: PaymentDeps, input: PaymentRiskInput): Promise<PreparedRisk | undefined> {
  if (!deps.riskSettings) return undefined;
  const settings = await deps.riskSettings.of(input.entityId);
  if (!settings.ruleSet.enabled) return undefined;
  const now = deps.clock.now();
  const { request, method, paymentType, amountMinor, currency, transactionId } = input;
  const facts = await requestFacts(deps.vault, settings.ruleSet, { request, method: method.data, brand: method.brand, paymentType, amountMinor, currency });
  const { counts, keys } = velocityProbes(settings, facts, now);
  const check: RiskCheck = {
    read: { counts, currency, probes: listProbesOf(facts, settings.listedKinds), listEntityIds: settings.listEntityIds },
    attempt: { keys, at: now, amountMinor, currency, transactionId },
  };
  return { settings, facts, check };
}

/**
 * The second half, on what the pending row's statement read: the pure rules decide, and the
 * rules that fired (stored for the operator) are answered as `evaluation`, kept with the outcome.
 */
export function decidePaymentRisk(deps: PaymentDeps, input: PaymentRiskInput, prepared: PreparedRisk, read: FactsRead): PaymentRisk {
  const { settings } = prepared;
  const decision = decideRisk(settings.ruleSet, factsWith(prepared.facts, settings, read), deps.system);
  const evaluation = decision.fired.length > 0
    ? evaluationJson({ decision: decision.kind, score: decision.score, fired: decision.fired, ruleSetVersion: settings.version })
    : undefined;
  return paymentRiskOf(deps, input, decision, evaluation);
}

function paymentRiskOf(deps: PaymentDeps, input: PaymentRiskInput, decision: RiskDecision, evaluation: object | undefined): PaymentRisk {
  const notifies = decision.kind === 'reject' || decision.kind === 'review';
  return {
    decision,
    evaluation,
    refusal: decision.kind === 'reject' ? { kind: 'refuse', code: decision.code! } : undefined,
    threeDSecureRequirement: decision.kind === 'threeDSecure' ? ALWAYS : undefined,
    // Object.assign, not a spread: a third of the cost on Node 20, and every checked payment answers it.
    echo: (echo) => Object.assign({}, echo, { risk: Object.assign({}, echo['risk'] as object | undefined, { score: String(decision.score) }) }),
    onOutcome: (hook) => {
      if (!notifies) return hook;
      return async (tx, outcome, transactionId) => {
        const registrationId = hook ? await hook(tx, outcome, transactionId) : undefined;
        // A review the bank declined is no review: the decline's PAYMENT notification says it all.
        if (decision.kind === 'reject' || outcome.kind === 'success') await enqueueNotification(tx, { entityId: input.entityId, type: 'RISK', transactionId }, deps);
        return registrationId;
      };
    },
    reviewed: (outcome) => (decision.kind === 'review' && outcome.kind === 'success' ? { ...outcome, code: REVIEW_CODE } : outcome),
  };
}
