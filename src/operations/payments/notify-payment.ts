import type { FanOut } from '../../storage/repositories/webhooks.js';
import type { OperationDeps } from '../deps.js';
import { prepareNotification } from '../webhooks/enqueue-notification.js';
import { storedResponse, type PaymentView } from './payment-response.js';

/**
 * The PAYMENT notification of a payment's outcome, written with the outcome (outbox, see
 * payment-writes.ts): the notification exists exactly when the outcome does. The payload is the
 * API's answer plus the presentation amount webhooks carry.
 */
export function paymentNotification(
  deps: Pick<OperationDeps, 'clock' | 'ids'>,
  payment: { entityId: string; view: PaymentView; notificationUrl?: string | undefined },
): FanOut {
  const { body } = payment.view;
  const payload = { ...storedResponse(payment.view), presentationAmount: body['amount'], presentationCurrency: body['currency'] };
  return prepareNotification({ entityId: payment.entityId, type: 'PAYMENT', payload, notificationUrl: payment.notificationUrl }, deps);
}
