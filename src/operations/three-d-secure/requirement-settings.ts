import type { Clock } from '../../domain/ids.js';
import { ExpiringMap } from '../../domain/expiring-map.js';
import { DEFAULT_THREE_D_SECURE_REQUIREMENT, parseRequirement, type ThreeDSecureRequirement } from '../../domain/three-d-secure/requirement.js';
import type { Queryable } from '../../storage/port.js';
import { findThreeDSecureSetting } from '../../storage/repositories/entity-settings.js';

/** An operator's change reaches every process within this time (the route table's rule too). */
const CACHE_MS = 5_000;
const ENTITIES_MAX = 10_000;

/**
 * Each entity's 3-D Secure requirement, read at most every five seconds per process: a card
 * payment needs it, and a query per payment would cost a round trip the payment path avoids.
 */
export class ThreeDSecureSettings {
  readonly #cache = new ExpiringMap<string, ThreeDSecureRequirement>(ENTITIES_MAX);
  constructor(private readonly db: Queryable, private readonly clock: Clock) {}

  async requirementOf(entityId: string): Promise<ThreeDSecureRequirement> {
    const nowMs = this.clock.now().getTime();
    const cached = this.#cache.get(entityId, nowMs);
    if (cached) return cached;
    const stored = await findThreeDSecureSetting(this.db, entityId);
    const parsed = stored === undefined ? DEFAULT_THREE_D_SECURE_REQUIREMENT : parseRequirement(stored);
    const requirement = 'error' in parsed ? DEFAULT_THREE_D_SECURE_REQUIREMENT : parsed;
    this.#cache.set(entityId, requirement, nowMs + CACHE_MS);
    return requirement;
  }

  /** After a change: this process reads the entity's setting again at once. */
  forget(entityId: string): void {
    this.#cache.delete(entityId);
  }
}
