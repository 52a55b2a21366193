import type { Clock } from '../domain/ids.js';
import { noObserver, type Observer } from '../observability/observer.js';
import { traceDelivery } from '../observability/tracing/delivery-span.js';
import { inJobContext } from '../observability/tracing/job-trace.js';
import { attemptDelivery, decideDelivery, deliveryOutcomeOf, scheduledAttemptWrite, type AttemptResult } from '../operations/webhooks/attempt-delivery.js';
import { DELIVER_WEBHOOK_JOB, type NotificationSender } from '../operations/webhooks/ports.js';
import type { Queryable, Storage } from '../storage/port.js';
import {
  cancelDeliveries,
  loadDeliveries,
  recordAttempts,
  type AttemptWrite,
  type DeliveryToSend,
} from '../storage/repositories/webhook-deliveries.js';
import { activatePendingWebhooks } from '../storage/repositories/webhooks.js';
import type { ClaimedJob, JobHandler, JobLogger, JobResult } from './job-types.js';

/** What one delivery job leaves to write: an attempt (maybe activating a webhook), or a cancellation. */
export type DeliveryRecord =
  | { readonly kind: 'attempt'; readonly write: AttemptWrite; readonly activateWebhookId: string | null }
  | { readonly kind: 'cancel'; readonly deliveryId: string; readonly at: Date };

export interface DeliverWebhookDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly sender: NotificationSender;
  readonly logger: JobLogger;
  /** Where each attempt is reported (deliveries by outcome, lag to the 2xx); nothing when absent. */
  readonly observer?: Observer | undefined;
}

function deliveryIdOf(job: ClaimedJob): string {
  const id = job.payload['deliveryId'];
  if (typeof id !== 'string') throw new Error(`job ${job.id} has no deliveryId`);
  return id;
}

/** The notification a delivery carries, and the payment it is about (its stored response's id). */
export function notificationOf(delivery: Pick<DeliveryToSend, 'notificationId' | 'notificationType' | 'transactionResponse'>): { notificationId: string; notificationType: string; transactionId?: string } {
  const transactionId = delivery.transactionResponse?.['id'];
  return { notificationId: delivery.notificationId, notificationType: delivery.notificationType, ...(typeof transactionId === 'string' ? { transactionId } : {}) };
}

async function deliverOne(deps: DeliverWebhookDeps, delivery: DeliveryToSend | undefined): Promise<JobResult<DeliveryRecord>> {
  if (!delivery) return {};
  const decision = decideDelivery(delivery);
  if (decision === 'skip') return {};
  if (decision === 'cancel') return { record: { kind: 'cancel', deliveryId: delivery.id, at: deps.clock.now() } };
  const attempt = await traceDelivery(delivery, () => attemptDelivery(deps.sender, deps.clock, delivery));
  observeAttempt(deps, delivery, attempt);
  const write = scheduledAttemptWrite(delivery, attempt);
  // Ids, status and timing only: never the URL's query, the body or the key.
  const fields = { deliveryId: delivery.id, ...notificationOf(delivery), webhookId: delivery.webhookId, attempt: delivery.attemptCount + 1, httpStatus: attempt.httpStatus, latencyMs: attempt.latencyMs };
  if (!attempt.acknowledged) deps.logger.info({ ...fields, error: attempt.error, nextAttemptAt: write.nextAttemptAt, giveUp: write.nextStatus === 'failed' }, 'webhook attempt not acknowledged');
  else deps.logger.debug(fields, 'webhook delivered');
  const activates = attempt.acknowledged && delivery.purpose === 'test' ? delivery.webhookId : null;
  // A failure with no next attempt is the delivery's last: the job gave up on it.
  const gaveUp = write.nextStatus === 'failed';
  return { runAgainAt: write.nextAttemptAt ?? undefined, record: { kind: 'attempt', write, activateWebhookId: activates }, ...(gaveUp ? { outcome: 'given_up' as const } : {}) };
}

/** The lag runs from the event (the notification's row) to the 2xx: what a merchant waits for. */
function observeAttempt(deps: DeliverWebhookDeps, delivery: DeliveryToSend, attempt: AttemptResult): void {
  const outcome = deliveryOutcomeOf(attempt);
  const lagSeconds = outcome === 'delivered' ? (deps.clock.now().getTime() - delivery.eventAt.getTime()) / 1000 : undefined;
  (deps.observer ?? noObserver).notificationDelivery({ outcome, lagSeconds });
}

async function recordDeliveries(tx: Queryable, records: readonly DeliveryRecord[]): Promise<void> {
  const attempts = records.flatMap((r) => (r.kind === 'attempt' ? [r] : []));
  const cancels = records.flatMap((r) => (r.kind === 'cancel' ? [r] : []));
  await recordAttempts(tx, attempts.map((a) => a.write));
  const activations = attempts.flatMap((a) => (a.activateWebhookId ? [{ id: a.activateWebhookId, at: a.write.attemptedAt }] : []));
  if (activations.length > 0) await activatePendingWebhooks(tx, activations.map((a) => a.id), activations[0]!.at);
  if (cancels.length > 0) await cancelDeliveries(tx, cancels.map((c) => c.deliveryId), cancels[0]!.at);
}

/**
 * The 'deliver-webhook' job: one attempt of one delivery. A batch of jobs loads its deliveries
 * in one query; each attempt then runs on its own, and the worker writes the attempts, the
 * activations of tested webhooks and the job completions together.
 */
export function deliverWebhookHandler(deps: DeliverWebhookDeps): JobHandler<DeliveryRecord> {
  return {
    kind: DELIVER_WEBHOOK_JOB,
    start(jobs) {
      const ids = jobs.flatMap((job) => (typeof job.payload['deliveryId'] === 'string' ? [job.payload['deliveryId']] : []));
      const loaded = loadDeliveries(deps.storage, ids);
      return jobs.map((job) => loaded.then((deliveries) => inJobContext(job, () => deliverOne(deps, deliveries.get(deliveryIdOf(job))))));
    },
    record: recordDeliveries,
  };
}
