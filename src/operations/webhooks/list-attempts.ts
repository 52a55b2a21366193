import { listAttempts as listRows } from '../../storage/repositories/webhook-deliveries.js';
import { findWebhook } from '../../storage/repositories/webhooks.js';
import type { OperationDeps } from '../deps.js';
import { toAttemptEntry, type AttemptEntry } from './summaries.js';
import { invalidParameter, webhookNotFound } from './webhook-errors.js';

export const DEFAULT_ATTEMPT_LIST_LIMIT = 100;
export const MAX_ATTEMPT_LIST_LIMIT = 500;

/** The latest attempts to a webhook, newest first. */
export async function listWebhookAttempts(deps: Pick<OperationDeps, 'storage'>, webhookId: string, limit = DEFAULT_ATTEMPT_LIST_LIMIT): Promise<AttemptEntry[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ATTEMPT_LIST_LIMIT) {
    throw invalidParameter('limit', String(limit), `must be a whole number from 1 to ${MAX_ATTEMPT_LIST_LIMIT}`);
  }
  if (!(await findWebhook(deps.storage, webhookId))) throw webhookNotFound(webhookId);
  return (await listRows(deps.storage, webhookId, limit)).map(toAttemptEntry);
}
