import { generateWebhookSecret } from '../../domain/webhook-crypto.js';
import { parseNotificationTypes } from '../../domain/webhook-notification-types.js';
import { findEntity } from '../../storage/repositories/entities.js';
import { findLocalReceivers } from '../../storage/repositories/local-receivers.js';
import { insertWebhook, type WebhookRecord } from '../../storage/repositories/webhooks.js';
import { withLocalReceivers } from '../../domain/webhook-url.js';
import type { OperationDeps } from '../deps.js';
import { checkTargetUrl } from './check-url.js';
import type { TargetRulesDeps } from './ports.js';
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
 * specification's). It starts 'pending' and nothing is sent yet: the secret is answered here, once,
 * and the receiver cannot read a notification before it holds it. The merchant saves the secret
 * in the receiver, then activates the webhook (test-webhook.ts), which sends the test notification
 * and activates on its acknowledgement. On the test system the URL may be one of the entity's
 * local receivers (local-receivers.ts).
 */
export async function createWebhook(deps: OperationDeps & TargetRulesDeps, input: CreateWebhookInput): Promise<CreatedWebhook> {
  const rules = withLocalReceivers(deps.webhookTargets, await findLocalReceivers(deps.storage, input.entityId));
  const url = checkTargetUrl('url', input.url, rules);
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
  await deps.storage.transaction(async (tx) => {
    if (!(await findEntity(tx, input.entityId))) throw entityNotFound(input.entityId);
    await insertWebhook(tx, { ...webhook, secret });
  });
  return { ...toWebhookSummary(webhook), secret };
}
