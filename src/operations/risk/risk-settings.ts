import type { Clock } from '../../domain/ids.js';
import { ExpiringMap } from '../../domain/expiring-map.js';
import { parseRuleSet } from '../../domain/risk/parse-rule-set.js';
import { DEFAULT_RULE_SET, type RiskRuleSet } from '../../domain/risk/rule-set.js';
import type { Storage } from '../../storage/port.js';
import { LIST_KINDS } from '../../domain/risk/facts.js';
import { findCurrentRuleSets, findListedKinds } from '../../storage/repositories/risk-config.js';

/** An operator's change reaches every process within this time (as 3-D Secure settings and routes). */
export const RISK_CACHE_MS = 5_000;
const ENTITIES_MAX = 10_000;

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
  /**
   * The kinds of entry those lists hold: a payment looks up only its values of these kinds (a
   * merchant without lists, the common case, costs no look-up at all). Read with the rule set,
   * so an entry of a kind the lists did not hold yet counts within RISK_CACHE_MS; entries of a
   * kind already held count at once.
   */
  readonly listedKinds: ReadonlySet<string>;
}

/**
 * The risk engine's settings in one process: each entity's effective rule set and the kinds its
 * lists hold, read at most every five seconds (every payment needs them, and a query per payment
 * would cost a round trip; a stored set that no longer parses falls back to the default rather
 * than stopping payments).
 */
export class RiskSettings {
  #cache = new ExpiringMap<string, EffectiveRiskSettings>(ENTITIES_MAX);
  constructor(
    private readonly db: Storage,
    private readonly clock: Clock,
    private readonly merchantOf: (entityId: string) => Promise<string | null>,
  ) {}

  async of(entityId: string): Promise<EffectiveRiskSettings> {
    const nowMs = this.clock.now().getTime();
    const cached = this.#cache.get(entityId, nowMs);
    if (cached) return cached;
    const merchantId = (await this.merchantOf(entityId)) ?? entityId;
    const listEntityIds = merchantId === entityId ? [entityId] : [entityId, merchantId];
    const [stored, listedKinds] = await Promise.all([findCurrentRuleSets(this.db, listEntityIds), findListedKinds(this.db, listEntityIds, LIST_KINDS)]);
    const own = stored.find((s) => s.entityId === entityId) ?? stored.find((s) => s.entityId === merchantId);
    const parsed = own ? parseRuleSet(own.rules) : DEFAULT_RULE_SET;
    const usable = 'errors' in parsed ? undefined : parsed;
    const settings: EffectiveRiskSettings = {
      ruleSet: usable ?? DEFAULT_RULE_SET,
      version: usable && own ? own.version : null,
      ownerId: usable && own ? own.entityId : null,
      merchantId,
      listEntityIds,
      listedKinds: new Set(listedKinds),
    };
    this.#cache.set(entityId, settings, nowMs + RISK_CACHE_MS);
    return settings;
  }

  /** After a change in this process: read again at once (other processes within RISK_CACHE_MS). */
  forgetAll(): void {
    this.#cache = new ExpiringMap<string, EffectiveRiskSettings>(ENTITIES_MAX);
  }
}
