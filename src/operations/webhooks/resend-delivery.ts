import { findDelivery, recordAttempts, type DeliveryStatus } from '../../storage/repositories/webhook-deliveries.js';
import type { Queryable } from '../../storage/port.js';
import { activatePendingWebhooks } from '../../storage/repositories/webhooks.js';
import { attemptDelivery } from './attempt-delivery.js';
import type { WebhookDeps } from './ports.js';
import { toAttemptSummary, type AttemptSummary } from './summaries.js';
import { deliveryNotFound, invalidParameter } from './webhook-errors.js';

export interface ResendOutcome {
  readonly attempt: AttemptSummary;
  readonly deliveryStatus: DeliveryStatus;
}

/**
 * Sends a delivery again now, whatever its status, with the same notification id so the receiver
 * can tell it is a repeat. An acknowledgement marks it delivered (a queued retry then does nothing);
 * a failure leaves its status and schedule as they were.
 */
export async function resendDelivery(deps: WebhookDeps, deliveryId: string, alsoWrite?: (tx: Queryable, attempt: AttemptSummary) => Promise<void>): Promise<ResendOutcome> {
  const delivery = await findDelivery(deps.storage, deliveryId);
  if (!delivery) throw deliveryNotFound(deliveryId);
  if (delivery.webhookDeleted) throw invalidParameter('deliveryId', deliveryId, 'its webhook was deleted');
  const attempt = await attemptDelivery(deps.sender, deps.clock, delivery);
  const summary = toAttemptSummary({ deliveryId, notificationId: delivery.notificationId }, attempt);
  await deps.storage.transaction(async (tx) => {
    await recordAttempts(tx, [{ deliveryId, trigger: 'resend', ...attempt, nextStatus: null, nextAttemptAt: null }]);
    if (attempt.acknowledged && delivery.purpose === 'test' && delivery.webhookId) await activatePendingWebhooks(tx, [delivery.webhookId], attempt.attemptedAt);
    // The caller's record of the resend (the console's audit entry), with the attempt it made.
    await alsoWrite?.(tx, summary);
  });
  return {
    attempt: summary,
    deliveryStatus: attempt.acknowledged ? 'delivered' : delivery.status,
  };
}
