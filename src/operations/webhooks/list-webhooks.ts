import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { findWebhook, listWebhooks as listRows } from '../../storage/repositories/webhooks.js';
import type { OperationDeps } from '../deps.js';
import { toWebhookSummary, type WebhookSummary } from './summaries.js';
import { invalidParameter, webhookNotFound } from './webhook-errors.js';

/** Webhooks of one entity, or of all entities; secrets are never listed. */
export async function listWebhooks(deps: Pick<OperationDeps, 'storage'>, entityId?: string): Promise<WebhookSummary[]> {
  if (entityId !== undefined && !ENTITY_ID_PATTERN.test(entityId)) throw invalidParameter('entity', entityId, 'must match ^[a-f0-9]{32}$');
  return (await listRows(deps.storage, entityId)).map(toWebhookSummary);
}

export async function getWebhook(deps: Pick<OperationDeps, 'storage'>, webhookId: string): Promise<WebhookSummary> {
  const webhook = await findWebhook(deps.storage, webhookId);
  if (!webhook) throw webhookNotFound(webhookId);
  return toWebhookSummary(webhook);
}
