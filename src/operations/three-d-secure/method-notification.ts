import { decodeMethodData } from '../../connectors/emv3ds-server/method.js';
import { recordMethodNotification, type MethodNotificationOutcome } from '../../storage/repositories/shopper-redirects.js';
import type { PaymentDeps } from '../deps.js';

/**
 * POST /v1/threeDSecure/method/notification, the threeDSMethodNotificationURL: the ACS's page in
 * the method page's hidden iframe posts `threeDSMethodData` (base64url JSON with the
 * threeDSServerTransID). It marks the open method of that transaction notified, once: a second
 * notification, one after the page went on, one of no method of this gateway, or one that is no
 * threeDSMethodData is refused and changes nothing (the route says which, never with a 500).
 */
export interface MethodNotification {
  readonly outcome: MethodNotificationOutcome | 'malformed';
  readonly threeDSServerTransID?: string | undefined;
}

export async function receiveMethodNotification(deps: Pick<PaymentDeps, 'storage' | 'clock'>, posted: unknown): Promise<MethodNotification> {
  const transId = decodeMethodData(posted);
  if (!transId) return { outcome: 'malformed' };
  return { outcome: await recordMethodNotification(deps.storage, transId, deps.clock.now()), threeDSServerTransID: transId };
}
