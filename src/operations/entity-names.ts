import type { Queryable } from '../storage/port.js';
import { findEntity } from '../storage/repositories/entities.js';

/**
 * Entity names end up in every payment's descriptor. Names do not change, so each is read once
 * per process instead of once per payment.
 */
export class EntityNames {
  readonly #names = new Map<string, string>();
  constructor(private readonly db: Queryable) {}

  async nameOf(entityId: string): Promise<string> {
    const cached = this.#names.get(entityId);
    if (cached !== undefined) return cached;
    const name = (await findEntity(this.db, entityId))?.name ?? '';
    this.#names.set(entityId, name);
    return name;
  }
}
