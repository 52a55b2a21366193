import type { Clock } from '../../domain/ids.js';
import { ExpiringMap } from '../../domain/expiring-map.js';
import { parseRuleSet } from '../../domain/risk/parse-rule-set.js';
import { DEFAULT_RULE_SET, type RiskRuleSet } from '../../domain/risk/rule-set.js';
import { createGroupCommit, type GroupCommit } from '../../storage/group-commit.js';
import type { Storage } from '../../storage/port.js';
import { readFactsAndRecordAttempts, type FactsRead, type FactsRequest } from '../../storage/repositories/risk-attempts.js';
import { insertEvaluations, type RiskEvaluationRow } from '../../storage/repositories/risk-evaluations.js';
import { findCurrentRuleSets } from '../../storage/repositories/risk-config.js';

/** An operator's change reaches every process within this time (as 3-D Secure settings and routes). */
export const RISK_CACHE_MS = 5_000;
const ENTITIES_MAX = 10_000;
/**
 * The checks of concurrent payments share one statement (group commit), as the payment writes
 * do: one statement per payment cost about a quarter of the throughput on a two-core machine
 * (docs/risk.md). Two groups in flight: a check is a read and a small insert, no row locks.
 */
const FACTS_GROUP_MAX = 128;
const FACTS_GROUPS_IN_FLIGHT = 2;

/** What the engine uses for one entity: its own rule set, else its merchant's, else the default. */
export interface EffectiveRiskSettings {
  readonly ruleSet: RiskRuleSet;
  /** The version in force (null: the built-in default) and whose it is. */
  readonly version: number | null;
  readonly ownerId: string | null;
  /** The merchant: velocity is counted per merchant, across its channels. */
  readonly merchantId: string;
  /** Lists that apply: the merchant's (inherited) and the channel's own. */
  readonly listEntityIds: readonly string[];
}

/**
 * The risk engine's state in one process: each entity's effective rule set, read at most every
 * five seconds (every payment needs it, and a query per payment would cost a round trip; a
 * stored set that no longer parses falls back to the default rather than stopping payments),
 * and the grouped statement that reads the payments' lists and counts and records their attempts.
 */
export class RiskSettings {
  #cache = new ExpiringMap<string, EffectiveRiskSettings>(ENTITIES_MAX);
  readonly #facts: GroupCommit<FactsRequest, FactsRead>;
  readonly #evaluations: GroupCommit<RiskEvaluationRow>;
  constructor(
    private readonly db: Storage,
    private readonly clock: Clock,
    private readonly merchantOf: (entityId: string) => Promise<string | null>,
  ) {
    this.#facts = createGroupCommit<FactsRequest, FactsRead>({
      storage: db,
      transactional: false,
      maxGroupSize: FACTS_GROUP_MAX,
      maxConcurrentGroups: FACTS_GROUPS_IN_FLIGHT,
      write: async (q, requests) => (await readFactsAndRecordAttempts(q, requests)).map((value) => ({ ok: true as const, value })),
    });
    // A rule that scores (velocity of a busy card …) fires on many payments: their evaluations
    // share statements and commits, as the payments' own writes do, instead of a commit each.
    this.#evaluations = createGroupCommit<RiskEvaluationRow>({
      storage: db,
      transactional: false,
      maxGroupSize: FACTS_GROUP_MAX,
      maxConcurrentGroups: FACTS_GROUPS_IN_FLIGHT,
      write: (q, rows) => insertEvaluations(q, rows),
    });
  }

  /** The rules that fired for one payment, stored for the operator in the statement of its group. */
  recordEvaluation(row: RiskEvaluationRow): Promise<void> {
    return this.#evaluations.submit(row);
  }

  /** One payment's lists and counts, its attempt recorded, in the statement of its group. */
  readFacts(request: FactsRequest): Promise<FactsRead> {
    return this.#facts.submit(request);
  }

  async of(entityId: string): Promise<EffectiveRiskSettings> {
    const nowMs = this.clock.now().getTime();
    const cached = this.#cache.get(entityId, nowMs);
    if (cached) return cached;
    const merchantId = (await this.merchantOf(entityId)) ?? entityId;
    const listEntityIds = merchantId === entityId ? [entityId] : [entityId, merchantId];
    const stored = await findCurrentRuleSets(this.db, listEntityIds);
    const own = stored.find((s) => s.entityId === entityId) ?? stored.find((s) => s.entityId === merchantId);
    const parsed = own ? parseRuleSet(own.rules) : DEFAULT_RULE_SET;
    const usable = 'errors' in parsed ? undefined : parsed;
    const settings: EffectiveRiskSettings = {
      ruleSet: usable ?? DEFAULT_RULE_SET,
      version: usable && own ? own.version : null,
      ownerId: usable && own ? own.entityId : null,
      merchantId,
      listEntityIds,
    };
    this.#cache.set(entityId, settings, nowMs + RISK_CACHE_MS);
    return settings;
  }

  /** After a change in this process: read again at once (other processes within RISK_CACHE_MS). */
  forgetAll(): void {
    this.#cache = new ExpiringMap<string, EffectiveRiskSettings>(ENTITIES_MAX);
  }
}
