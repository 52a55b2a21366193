import type { CreatedWebhook, CreateWebhookInput } from '../operations/webhooks/create-webhook.js';
import type { ResendOutcome } from '../operations/webhooks/resend-delivery.js';
import type { AttemptEntry, WebhookSummary } from '../operations/webhooks/summaries.js';
import type { TestOutcome } from '../operations/webhooks/test-webhook.js';
import type { LocalReceiversSetting } from '../operations/webhooks/local-receivers.js';

/** What the webhook commands need, whether they talk to the database or to a running gateway. */
export interface WebhookPort {
  createWebhook(input: CreateWebhookInput): Promise<CreatedWebhook>;
  listWebhooks(entityId?: string): Promise<WebhookSummary[]>;
  activateWebhook(webhookId: string): Promise<TestOutcome>;
  deactivateWebhook(webhookId: string): Promise<WebhookSummary>;
  deleteWebhook(webhookId: string): Promise<{ webhookId: string; deleted: true }>;
  testWebhook(webhookId: string): Promise<TestOutcome>;
  listAttempts(webhookId: string, limit?: number): Promise<AttemptEntry[]>;
  resendDelivery(deliveryId: string): Promise<ResendOutcome>;
  setLocalReceivers(entityId: string, receivers: string): Promise<LocalReceiversSetting>;
  showLocalReceivers(entityId: string): Promise<LocalReceiversSetting>;
  close(): Promise<void>;
}
