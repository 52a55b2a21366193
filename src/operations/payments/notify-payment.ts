import type { FanOut } from '../../storage/repositories/webhooks.js';
import type { OperationDeps } from '../deps.js';
import { prepareNotification } from '../webhooks/enqueue-notification.js';

/**
 * The PAYMENT notification of a payment's outcome, written with the outcome (outbox, see
 * payment-writes.ts): the notification exists exactly when the outcome does. It names the
 * transaction: its payload is the stored response (the API's answer) plus the presentation amount
 * webhooks carry, built at delivery (paymentPayload in notification-message.ts).
 */
export function paymentNotification(
  deps: Pick<OperationDeps, 'clock' | 'ids'>,
  payment: { entityId: string; transactionId: string; notificationUrl?: string | undefined },
): FanOut {
  return prepareNotification({ entityId: payment.entityId, type: 'PAYMENT', transactionId: payment.transactionId, notificationUrl: payment.notificationUrl }, deps);
}
