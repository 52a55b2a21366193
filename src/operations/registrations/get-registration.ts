import type { OperationDeps } from '../deps.js';
import { loadRegistration, refuseDeregistered } from './load-registration.js';
import { viewOfStoredRegistration, type RegistrationView } from './registration-record.js';

/** GET /v1/registrations/{id}: the registration as it was created, masked; never decrypted. */
export async function getRegistration(deps: Pick<OperationDeps, 'storage'>, entityId: string, id: string): Promise<RegistrationView> {
  const registration = await loadRegistration(deps.storage, entityId, id);
  refuseDeregistered(registration);
  return viewOfStoredRegistration(registration);
}
