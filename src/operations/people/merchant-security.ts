import type { Actor } from '../../domain/access/actor.js';
import type { Queryable } from '../../storage/port.js';
import type { PeopleDeps } from './deps.js';
import { recordChange } from '../audit/record-change.js';
import { findEntity } from '../../storage/repositories/entities.js';

/** Whether a merchant requires a second factor of all its people (merchant-security.manage). */
export async function merchantRequiresSecondFactor(db: Queryable, merchantId: string): Promise<boolean> {
  const { rows } = await db.query<{ require_second_factor: boolean }>('SELECT require_second_factor FROM merchant_console_security WHERE merchant_id = $1', [merchantId]);
  return rows[0]?.require_second_factor ?? false;
}

/**
 * Requires (or stops requiring) a second factor of a merchant's people; audited. People without an
 * authenticator enrol at their next sign-in; false when there is no such merchant; sessions already open go on until they end.
 */
export async function setMerchantSecondFactor(deps: PeopleDeps, actor: Actor, merchantId: string, required: boolean): Promise<boolean> {
  if ((await findEntity(deps.storage, merchantId))?.kind !== 'merchant') return false;
  return deps.storage.transaction(async (tx) => {
    const before = await merchantRequiresSecondFactor(tx, merchantId);
    await tx.query(
      `INSERT INTO merchant_console_security (merchant_id, require_second_factor, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_id) DO UPDATE SET require_second_factor = EXCLUDED.require_second_factor, updated_at = EXCLUDED.updated_at`,
      [merchantId, required, deps.clock.now()],
    );
    await recordChange(tx, deps.clock, { actor, action: 'merchant-security.manage', target: { kind: 'merchant', id: merchantId }, merchantId, before: { requireSecondFactor: before }, after: { requireSecondFactor: required } });
    return true;
  });
}
