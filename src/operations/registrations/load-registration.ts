import { GatewayError } from '../../results/gateway-error.js';
import type { Queryable } from '../../storage/port.js';
import { findRegistration, lookUpRegistration, type StoredRegistration } from '../../storage/repositories/registrations.js';

/**
 * The registration the entity names. Unknown and another entity's ids get the same "does not
 * exist" answer (404, like an unknown payment), so ids of other merchants cannot be probed.
 */
export async function loadRegistration(db: Queryable, entityId: string, id: string): Promise<StoredRegistration> {
  const registration = await findRegistration(db, entityId, id);
  if (!registration) throw new GatewayError('100.150.200', { httpStatus: 404 });
  return registration;
}

/**
 * loadRegistration for a payment: the same answer, read in one statement with the look-ups of
 * concurrent payments (a second of scheduled runs reads its registrations together).
 */
export async function loadRegistrationToPay(db: Queryable, entityId: string, id: string): Promise<StoredRegistration> {
  const registration = await lookUpRegistration(db, entityId, id);
  if (!registration) throw new GatewayError('100.150.200', { httpStatus: 404 });
  return registration;
}

export function refuseDeregistered(registration: StoredRegistration): void {
  if (registration.status === 'deregistered') throw new GatewayError('100.150.202');
}

/** A registration a payment may use: not deregistered, and not waiting for its payment's outcome. */
export function refuseUnusable(registration: StoredRegistration): void {
  refuseDeregistered(registration);
  if (registration.status === 'pending') throw new GatewayError('100.150.201');
}
