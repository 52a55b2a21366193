import type { Config } from '../config/load-config.js';
import { randomIds, systemClock } from '../domain/ids.js';
import { httpNotificationSender } from '../jobs/http-sender.js';
import { createWebhook } from '../operations/webhooks/create-webhook.js';
import { deactivateWebhook, deleteWebhook } from '../operations/webhooks/deactivate-webhook.js';
import { listWebhookAttempts } from '../operations/webhooks/list-attempts.js';
import { listWebhooks } from '../operations/webhooks/list-webhooks.js';
import { resendDelivery } from '../operations/webhooks/resend-delivery.js';
import { setLocalReceivers, showLocalReceivers } from '../operations/webhooks/local-receivers.js';
import { activateWebhook, testWebhook } from '../operations/webhooks/test-webhook.js';
import { openMigratedStorage } from '../storage/open-storage.js';
import type { WebhookPort } from './webhook-port.js';

/**
 * Runs the webhook operations against the database itself. Tests and resends are sent from this
 * process; the test notification queued by `create` waits for a worker (the gateway or `npm run worker`).
 */
export async function openDirectWebhooks(config: Config): Promise<WebhookPort> {
  const settings = config.workers;
  const storage = await openMigratedStorage(config);
  const sender = httpNotificationSender({ timeoutMs: settings.webhookTimeoutMs, maxSocketsPerHost: 1, targets: settings.webhookTargets });
  const deps = { storage, clock: systemClock, ids: randomIds, sender, webhookTargets: settings.webhookTargets };
  return {
    createWebhook: (input) => createWebhook(deps, input),
    listWebhooks: (entityId) => listWebhooks(deps, entityId),
    activateWebhook: (id) => activateWebhook(deps, id),
    deactivateWebhook: (id) => deactivateWebhook(deps, id),
    deleteWebhook: (id) => deleteWebhook(deps, id),
    testWebhook: (id) => testWebhook(deps, id),
    listAttempts: (id, limit) => listWebhookAttempts(deps, id, limit),
    resendDelivery: (id) => resendDelivery(deps, id),
    setLocalReceivers: (entityId, receivers) => setLocalReceivers(deps, entityId, receivers),
    showLocalReceivers: (entityId) => showLocalReceivers(deps, entityId),
    async close() {
      sender.close();
      await storage.close();
    },
  };
}
