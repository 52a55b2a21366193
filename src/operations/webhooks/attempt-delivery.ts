import type { Clock } from '../../domain/ids.js';
import { nextAttemptAt } from '../../domain/retry-schedule.js';
import type { AttemptWrite, DeliveryToSend } from '../../storage/repositories/webhook-deliveries.js';
import { buildNotificationRequest, deliveryBody } from './notification-message.js';
import type { NotificationSender } from './ports.js';

export interface AttemptResult {
  readonly attemptedAt: Date;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
  readonly acknowledged: boolean;
  /** The target's address was refused (never connected): the delivery fails without retries. */
  readonly refused: boolean;
}

/** Any 2xx is an acknowledgement; redirects are not followed and count as failures. */
export function isAcknowledged(httpStatus: number | null): boolean {
  return httpStatus !== null && httpStatus >= 200 && httpStatus < 300;
}

export type DeliveryDecision = 'send' | 'skip' | 'cancel';

/**
 * Whether a queued delivery is still wanted: nothing to do once it left 'pending' (a resend
 * delivered it, or the lease ran out after another worker finished it); cancelled when its
 * webhook was deleted or is not active, and a creation test only while the webhook waits for it
 * (registration queued one until issue 34; activation sends it now, but an older queue may hold one).
 */
export function decideDelivery(delivery: DeliveryToSend): DeliveryDecision {
  if (delivery.status !== 'pending') return 'skip';
  if (delivery.webhookId === null) return 'send';
  if (delivery.webhookDeleted) return 'cancel';
  const wantedStatus = delivery.purpose === 'test' ? 'pending' : 'active';
  return delivery.webhookStatus === wantedStatus ? 'send' : 'cancel';
}

/** Makes one attempt now. */
export async function attemptDelivery(sender: NotificationSender, clock: Clock, delivery: DeliveryToSend): Promise<AttemptResult> {
  const attemptedAt = clock.now();
  const outcome = await sender.send(buildNotificationRequest({ ...delivery, body: deliveryBody(delivery) }));
  return { attemptedAt, httpStatus: outcome.httpStatus, error: outcome.error, latencyMs: outcome.latencyMs, acknowledged: isAcknowledged(outcome.httpStatus), refused: outcome.refused === true };
}

export type DeliveryOutcome = 'delivered' | 'http_error' | 'network_error' | 'refused_target';

/** How an attempt counts in gateway_notification_deliveries_total. */
export function deliveryOutcomeOf(attempt: Pick<AttemptResult, 'acknowledged' | 'refused' | 'httpStatus'>): DeliveryOutcome {
  if (attempt.acknowledged) return 'delivered';
  if (attempt.refused) return 'refused_target';
  return attempt.httpStatus === null ? 'network_error' : 'http_error';
}

/**
 * The write of a scheduled attempt: on failure, the next try from the retry schedule or give up.
 * A refused target gives up at once: its address will not become acceptable by waiting.
 */
export function scheduledAttemptWrite(delivery: DeliveryToSend, attempt: AttemptResult): AttemptWrite {
  const base = { deliveryId: delivery.id, trigger: 'worker' as const, ...attempt };
  if (attempt.acknowledged) return { ...base, nextStatus: null, nextAttemptAt: null };
  if (attempt.refused) return { ...base, nextStatus: 'failed', nextAttemptAt: null };
  const next = nextAttemptAt({
    firstAttemptAt: delivery.firstAttemptAt ?? attempt.attemptedAt,
    failedAttempts: delivery.attemptCount + 1,
    attemptedAt: attempt.attemptedAt,
  });
  return next ? { ...base, nextStatus: 'pending', nextAttemptAt: next } : { ...base, nextStatus: 'failed', nextAttemptAt: null };
}
