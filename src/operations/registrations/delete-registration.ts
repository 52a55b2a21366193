import { resultOf } from '../../http/envelope.js';
import { GatewayError } from '../../results/gateway-error.js';
import { deregisterRegistration } from '../../storage/repositories/registrations.js';
import type { PaymentDeps } from '../deps.js';
import { enqueueNotification } from '../webhooks/enqueue-notification.js';
import { loadRegistration, refuseDeregistered } from './load-registration.js';
import { registrationSuccessCode, viewOfStoredRegistration, type RegistrationView } from './registration-record.js';

function withoutHolder(body: Record<string, unknown>): Record<string, unknown> {
  const erased: Record<string, unknown> = { ...body };
  for (const name of ['card', 'bankAccount']) {
    const account = body[name];
    if (typeof account === 'object' && account !== null) {
      const { holder: _holder, ...rest } = account as Record<string, unknown>;
      erased[name] = rest;
    }
  }
  return erased;
}

/**
 * DELETE /v1/registrations/{id}: deregisters. The sealed account, its fingerprint and the holder
 * are erased in the same statement, so nothing of the card can be decrypted afterwards; any
 * later use answers 100.150.202. The answer names the deregistration (id) and the registration
 * (referencedId), as the public interface does.
 */
export async function deleteRegistration(deps: PaymentDeps, input: { entityId: string; id: string; testMode?: 'INTERNAL' | 'EXTERNAL' | undefined }): Promise<RegistrationView> {
  const registration = await loadRegistration(deps.storage, input.entityId, input.id);
  refuseDeregistered(registration);
  const deregistrationId = deps.ids.id();
  const stored = viewOfStoredRegistration(registration);
  const result = resultOf(registrationSuccessCode(deps.system, input.testMode));
  const erasedBody = withoutHolder(stored.body);
  await deps.storage.transaction(async (tx) => {
    const done = await deregisterRegistration(tx, registration.id, { deregistrationId, response: { ...erasedBody, result: stored.result }, at: deps.clock.now() });
    if (!done) throw new GatewayError('100.150.202');
    await enqueueNotification(tx, { entityId: registration.entityId, type: 'REGISTRATION', action: 'DELETED', payload: { ...erasedBody, result } }, deps);
  });
  return { body: { id: deregistrationId, referencedId: registration.id, paymentBrand: registration.paymentBrand }, result };
}
