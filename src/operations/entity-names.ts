import type { Queryable } from '../storage/port.js';
import { findEntity } from '../storage/repositories/entities.js';

interface EntityFacts {
  readonly name: string;
  readonly merchantId: string | null;
}

/**
 * Entity names end up in every payment's descriptor, and a channel's merchant decides its routes.
 * Neither changes, so each entity is read once per process instead of once per payment.
 */
export class EntityNames {
  readonly #entities = new Map<string, EntityFacts>();
  constructor(private readonly db: Queryable) {}

  async nameOf(entityId: string): Promise<string> {
    return (await this.factsOf(entityId)).name;
  }

  /** The merchant of a channel; null for a merchant (or an unknown id). */
  async merchantOf(entityId: string): Promise<string | null> {
    return (await this.factsOf(entityId)).merchantId;
  }

  private async factsOf(entityId: string): Promise<EntityFacts> {
    const cached = this.#entities.get(entityId);
    if (cached !== undefined) return cached;
    const entity = await findEntity(this.db, entityId);
    const facts = { name: entity?.name ?? '', merchantId: entity?.merchantId ?? null };
    // An unknown id is not remembered: it may be an entity created a moment later.
    if (entity) this.#entities.set(entityId, facts);
    return facts;
  }
}
