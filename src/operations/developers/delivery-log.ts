import type { Visibility } from '../../domain/access/actor.js';
import { findDelivery } from '../../storage/repositories/webhook-deliveries.js';
import { listDeliveryLog, type DeliveryLogEntry } from '../../storage/repositories/developer-delivery-log.js';
import { recordChange } from '../audit/record-change.js';
import type { OperationDeps } from '../deps.js';
import { deliveryBody, NOTIFICATION_USER_AGENT } from '../webhooks/notification-message.js';
import type { WebhookDeps } from '../webhooks/ports.js';
import { resendDelivery, type ResendOutcome } from '../webhooks/resend-delivery.js';
import type { DeveloperActor } from './developer-scope.js';
import { requireVisibleDelivery, requireVisibleWebhook } from './webhook-scope.js';

export const DELIVERY_LOG_PAGE_SIZE = 50;

export interface DeliveryLogPage {
  readonly entries: readonly DeliveryLogEntry[];
  /** The cursor of the next (older) page; undefined on the last. */
  readonly next: string | undefined;
}

/** A webhook's delivery attempts, newest first. */
export async function readDeliveryLog(deps: Pick<OperationDeps, 'storage'>, visibility: Visibility, webhookId: string, cursor: string | undefined): Promise<DeliveryLogPage> {
  await requireVisibleWebhook(deps.storage, visibility, webhookId);
  const before = cursor !== undefined && /^[0-9]{1,19}$/.test(cursor) ? BigInt(cursor) : undefined;
  const rows = await listDeliveryLog(deps.storage, webhookId, before, DELIVERY_LOG_PAGE_SIZE + 1);
  const entries = rows.slice(0, DELIVERY_LOG_PAGE_SIZE);
  return { entries, next: rows.length > DELIVERY_LOG_PAGE_SIZE ? String(entries.at(-1)!.attemptId) : undefined };
}

/** What every attempt of a delivery sends: its headers and the body before encryption. */
export interface DeliveryRequestView {
  readonly deliveryId: string;
  readonly webhookId: string;
  readonly url: string;
  readonly headers: readonly (readonly [string, string])[];
  /** The JSON that is encrypted (never a card number: the payload is the API's answer). */
  readonly body: string;
}

/** The request of one delivery as the receiver gets it, decrypted (the IV and tag are fresh at each attempt). */
export async function viewDeliveryRequest(deps: Pick<OperationDeps, 'storage'>, visibility: Visibility, deliveryId: string): Promise<DeliveryRequestView> {
  const { webhookId } = await requireVisibleDelivery(deps.storage, visibility, deliveryId);
  const delivery = (await findDelivery(deps.storage, deliveryId))!;
  const headers: [string, string][] = [
    ['Content-Type', 'text/plain'],
    ['X-Notification-Id', delivery.notificationId],
    ['User-Agent', NOTIFICATION_USER_AGENT],
    ['X-Initialization-Vector', '(12 random bytes in hex, new at each attempt)'],
    ['X-Authentication-Tag', '(the AES-GCM tag of that attempt, hex)'],
  ];
  let body: string;
  try {
    body = JSON.stringify(JSON.parse(deliveryBody(delivery)), null, 2);
  } catch {
    body = '(the body can no longer be built: its payment was removed)';
  }
  return { deliveryId, webhookId, url: delivery.url, headers, body };
}

/** Sends a delivery again now (same notification id); audited after the call, with the answer. */
export async function resendDeveloperDelivery(deps: WebhookDeps, who: DeveloperActor, deliveryId: string): Promise<ResendOutcome & { webhookId: string }> {
  const { webhookId, merchantId } = await requireVisibleDelivery(deps.storage, who.visibility, deliveryId);
  const outcome = await resendDelivery(deps, deliveryId);
  await deps.storage.transaction((tx) => recordChange(tx, deps.clock, {
    actor: who.actor, action: 'notifications.resend', target: { kind: 'webhook-delivery', id: deliveryId }, merchantId,
    after: { webhookId, httpStatus: outcome.attempt.httpStatus, error: outcome.attempt.error, acknowledged: outcome.attempt.acknowledged },
  }));
  return { ...outcome, webhookId };
}
