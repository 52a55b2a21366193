import { findDelivery, recordAttempts } from '../../storage/repositories/webhook-deliveries.js';
import { changeWebhookStatus, findWebhook, insertSingleDelivery, type WebhookRecord, type WebhookStatus } from '../../storage/repositories/webhooks.js';
import { attemptDelivery, type AttemptResult } from './attempt-delivery.js';
import { testNotificationBody } from './notification-message.js';
import type { WebhookDeps } from './ports.js';
import { toAttemptSummary, toWebhookSummary, type AttemptSummary, type WebhookSummary } from './summaries.js';
import { notAcknowledged, webhookNotFound } from './webhook-errors.js';

export interface TestOutcome {
  readonly webhook: WebhookSummary;
  readonly attempt: AttemptSummary;
}

/**
 * Sends a test notification now, records the attempt and, when it is acknowledged, moves the
 * webhook to active from any status in `activateFrom`.
 */
async function sendTestNow(deps: WebhookDeps, webhook: WebhookRecord, activateFrom: readonly WebhookStatus[]): Promise<{ outcome: TestOutcome; attempt: AttemptResult }> {
  const now = deps.clock.now();
  const notificationId = deps.ids.id();
  const notification = { id: notificationId, entityId: webhook.entityId, type: 'TEST', action: null, createdAt: now, body: testNotificationBody(notificationId, webhook) };
  // Committed before sending, so the attempt has its delivery even if this process dies meanwhile.
  const deliveryId = await deps.storage.transaction((tx) => insertSingleDelivery(tx, notification, { webhookId: webhook.id, purpose: 'test' }));
  const delivery = (await findDelivery(deps.storage, deliveryId))!;
  const attempt = await attemptDelivery(deps.sender, deps.clock, delivery);
  const current = await deps.storage.transaction(async (tx) => {
    await recordAttempts(tx, [{ deliveryId, trigger: 'test', ...attempt, nextStatus: 'failed', nextAttemptAt: null }]);
    if (attempt.acknowledged) await changeWebhookStatus(tx, webhook.id, { to: 'active', from: activateFrom, at: deps.clock.now() });
    return findWebhook(tx, webhook.id);
  });
  const outcome = { webhook: toWebhookSummary(current ?? webhook), attempt: toAttemptSummary({ deliveryId, notificationId }, attempt) };
  return { outcome, attempt };
}

async function existingWebhook(deps: WebhookDeps, webhookId: string): Promise<WebhookRecord> {
  const webhook = await findWebhook(deps.storage, webhookId);
  if (!webhook) throw webhookNotFound(webhookId);
  return webhook;
}

/**
 * Sends a test notification and reports how the receiver answered. An acknowledged test
 * activates a webhook that waits for its first test, never one the operator deactivated.
 */
export async function testWebhook(deps: WebhookDeps, webhookId: string): Promise<TestOutcome> {
  const webhook = await existingWebhook(deps, webhookId);
  return (await sendTestNow(deps, webhook, ['pending'])).outcome;
}

/** Sends a test notification and activates the webhook if it is acknowledged; else 502 900.100.100. */
export async function activateWebhook(deps: WebhookDeps, webhookId: string): Promise<TestOutcome> {
  const webhook = await existingWebhook(deps, webhookId);
  const { outcome, attempt } = await sendTestNow(deps, webhook, ['pending', 'inactive', 'active']);
  if (!attempt.acknowledged) throw notAcknowledged(webhook.url, attempt);
  return outcome;
}
