import { generateWebhookSecret } from '../../domain/webhook-crypto.js';
import { parseNotificationTypes } from '../../domain/webhook-notification-types.js';
import { findEntity } from '../../storage/repositories/entities.js';
import { enqueueJob } from '../../storage/repositories/jobs.js';
import { insertSingleDelivery, insertWebhook, type WebhookRecord } from '../../storage/repositories/webhooks.js';
import type { OperationDeps } from '../deps.js';
import { checkTargetUrl } from './check-url.js';
import { testNotificationBody } from './notification-message.js';
import { DELIVER_WEBHOOK_JOB, type TargetRulesDeps } from './ports.js';
import { toWebhookSummary, type WebhookSummary } from './summaries.js';
import { entityNotFound, invalidParameter } from './webhook-errors.js';

export interface CreateWebhookInput {
  readonly entityId: string;
  readonly url: string;
  /** The notification types to send it, as the operator wrote them (`PAYMENT,SCHEDULE`); absent: the specification's. */
  readonly types?: string | undefined;
}

function notificationTypesOf(input: CreateWebhookInput): readonly string[] {
  const parsed = parseNotificationTypes(input.types);
  if (!parsed.ok) throw invalidParameter('types', input.types ?? '', parsed.message);
  return parsed.types;
}

/** The only time the secret is shown. */
export interface CreatedWebhook extends WebhookSummary {
  readonly secret: string;
}

/**
 * Registers a webhook for an entity, subscribed to the notification types asked for (else the
 * specification's). It starts 'pending' and its test notification is queued in the same
 * transaction, whatever the types: the test is how the receiver shows it holds the secret; the worker activates the webhook when the receiver acknowledges it
 * (retrying on the usual schedule while it does not).
 */
export async function createWebhook(deps: OperationDeps & TargetRulesDeps, input: CreateWebhookInput): Promise<CreatedWebhook> {
  const url = checkTargetUrl('url', input.url, deps.webhookTargets);
  const notificationTypes = notificationTypesOf(input);
  const now = deps.clock.now();
  const secret = generateWebhookSecret();
  const webhook: WebhookRecord = {
    id: deps.ids.id(),
    entityId: input.entityId,
    url,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
    activatedAt: null,
    notificationTypes,
  };
  const notificationId = deps.ids.id();
  await deps.storage.transaction(async (tx) => {
    if (!(await findEntity(tx, input.entityId))) throw entityNotFound(input.entityId);
    await insertWebhook(tx, { ...webhook, secret });
    const notification = { id: notificationId, entityId: webhook.entityId, type: 'TEST', action: null, createdAt: now };
    const body = testNotificationBody(notificationId, webhook);
    const deliveryId = await insertSingleDelivery(tx, { ...notification, body }, { webhookId: webhook.id, purpose: 'test' });
    await enqueueJob(tx, { kind: DELIVER_WEBHOOK_JOB, payload: { deliveryId }, runAt: now, createdAt: now });
  });
  return { ...toWebhookSummary(webhook), secret };
}
