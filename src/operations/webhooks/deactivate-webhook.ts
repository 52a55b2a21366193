import { cancelPendingDeliveriesOfWebhook } from '../../storage/repositories/webhook-deliveries.js';
import { changeWebhookStatus, findWebhook, markWebhookDeleted } from '../../storage/repositories/webhooks.js';
import type { OperationDeps } from '../deps.js';
import { toWebhookSummary, type WebhookSummary } from './summaries.js';
import { webhookNotFound } from './webhook-errors.js';

/**
 * Stops notifications to a webhook until it is activated again. Deliveries still queued for it
 * are cancelled now rather than held: a receiver switched off does not want a backlog later.
 */
export async function deactivateWebhook(deps: OperationDeps, webhookId: string): Promise<WebhookSummary> {
  const now = deps.clock.now();
  return deps.storage.transaction(async (tx) => {
    const changed = await changeWebhookStatus(tx, webhookId, { to: 'inactive', from: ['pending', 'active', 'inactive'], at: now });
    if (!changed) throw webhookNotFound(webhookId);
    await cancelPendingDeliveriesOfWebhook(tx, webhookId, now);
    return toWebhookSummary((await findWebhook(tx, webhookId))!);
  });
}

/** Removes a webhook for good; its attempt history stays readable in the database. */
export async function deleteWebhook(deps: OperationDeps, webhookId: string): Promise<{ webhookId: string; deleted: true }> {
  const now = deps.clock.now();
  await deps.storage.transaction(async (tx) => {
    if (!(await markWebhookDeleted(tx, webhookId, now))) throw webhookNotFound(webhookId);
    await cancelPendingDeliveriesOfWebhook(tx, webhookId, now);
  });
  return { webhookId, deleted: true };
}
