import type { AttemptListing } from '../../storage/repositories/webhook-deliveries.js';
import type { WebhookRecord, WebhookStatus } from '../../storage/repositories/webhooks.js';
import type { AttemptResult } from './attempt-delivery.js';

/** A webhook as the operator sees it: never its secret. */
export interface WebhookSummary {
  readonly webhookId: string;
  readonly entityId: string;
  readonly url: string;
  readonly status: WebhookStatus;
  readonly createdAt: string;
  readonly activatedAt: string | null;
  /** The notification types it is sent. */
  readonly types: readonly string[];
}

export function toWebhookSummary(webhook: WebhookRecord): WebhookSummary {
  return {
    webhookId: webhook.id,
    entityId: webhook.entityId,
    url: webhook.url,
    status: webhook.status,
    createdAt: webhook.createdAt.toISOString(),
    activatedAt: webhook.activatedAt?.toISOString() ?? null,
    types: webhook.notificationTypes,
  };
}

/** One attempt made on the operator's request. */
export interface AttemptSummary {
  readonly deliveryId: string;
  readonly notificationId: string;
  readonly attemptedAt: string;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
  readonly acknowledged: boolean;
}

export function toAttemptSummary(ids: { deliveryId: string; notificationId: string }, attempt: AttemptResult): AttemptSummary {
  return {
    ...ids,
    attemptedAt: attempt.attemptedAt.toISOString(),
    httpStatus: attempt.httpStatus,
    error: attempt.error,
    latencyMs: attempt.latencyMs,
    acknowledged: attempt.acknowledged,
  };
}

/** A recorded attempt in the operator's listing. */
export type AttemptEntry = Omit<AttemptListing, 'attemptedAt'> & { readonly attemptedAt: string };

export function toAttemptEntry(listing: AttemptListing): AttemptEntry {
  return { ...listing, attemptedAt: listing.attemptedAt.toISOString() };
}
