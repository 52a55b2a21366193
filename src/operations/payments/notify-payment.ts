import type { Queryable } from '../../storage/port.js';
import type { OperationDeps } from '../deps.js';
import { enqueueNotification } from '../webhooks/enqueue-notification.js';
import { storedResponse, type PaymentView } from './payment-response.js';

/**
 * Queues the PAYMENT notification of a payment's outcome inside the transaction that stores it
 * (outbox): the notification exists exactly when the outcome does. The payload is the API's
 * answer plus the presentation amount webhooks carry.
 */
export async function notifyPayment(
  tx: Queryable,
  deps: Pick<OperationDeps, 'clock' | 'ids'>,
  payment: { entityId: string; view: PaymentView; notificationUrl?: string | undefined },
): Promise<void> {
  const { body } = payment.view;
  const payload = { ...storedResponse(payment.view), presentationAmount: body['amount'], presentationCurrency: body['currency'] };
  await enqueueNotification(tx, { entityId: payment.entityId, type: 'PAYMENT', payload, notificationUrl: payment.notificationUrl }, deps);
}
