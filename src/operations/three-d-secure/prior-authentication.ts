import type { PriorAuthentication } from '../../domain/three-d-secure/three-ri.js';
import type { Queryable } from '../../storage/port.js';
import { findRegistration } from '../../storage/repositories/registrations.js';
import { findTransaction } from '../../storage/repositories/transactions.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The earlier authentication a 3RI on a registration rests on: the threeDSecure block of the
 * registration's initial payment (its acsTransactionId, dsTransactionId, whether it was
 * challenged, when), read within the entity only. None where the registration has no initial
 * payment or that payment was not authenticated by this gateway: the AReq then says none.
 */
export async function priorAuthenticationOf(db: Queryable, entityId: string, registrationId: string): Promise<PriorAuthentication | undefined> {
  const registration = await findRegistration(db, entityId, registrationId);
  if (!registration?.initialTransactionId) return undefined;
  const initial = await findTransaction(db, entityId, registration.initialTransactionId);
  const block = initial?.response['threeDSecure'] as Record<string, unknown> | undefined;
  const acs = block?.['acsTransactionId'];
  if (!initial || typeof acs !== 'string' || !UUID.test(acs)) return undefined;
  const ds = block?.['dsTransactionId'];
  return {
    acsTransactionId: acs,
    ...(typeof ds === 'string' && ds.length <= 2048 ? { dsTransactionId: ds } : {}),
    challenged: block?.['challengeMandatedIndicator'] === 'Y',
    at: initial.createdAt,
  };
}
