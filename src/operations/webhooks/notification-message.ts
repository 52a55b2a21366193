import { paymentForMerchant, withoutConnectorDetails } from '../../domain/responses/connector-details.js';
import { encryptNotification } from '../../domain/webhook-crypto.js';
import type { DeliveryToSend } from '../../storage/repositories/webhook-deliveries.js';
import type { NotificationRequest } from './ports.js';

export const NOTIFICATION_USER_AGENT = 'open-payment-gateway-webhooks/1';

export interface NotificationContent {
  /** The stable notification id receivers de-duplicate on; the same on every attempt. */
  readonly id: string;
  readonly type: string;
  readonly action: string | null;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** `{"id", "type", "action" (when set), "payload"}`: the body as the public interface sends it, plus id. */
export function notificationBody(content: NotificationContent): string {
  return JSON.stringify({
    id: content.id,
    type: content.type,
    ...(content.action ? { action: content.action } : {}),
    payload: content.payload,
  });
}

/**
 * A PAYMENT notification's payload: the payment's stored response (what the API answered) plus
 * the presentation amount and currency webhooks carry.
 */
export function paymentPayload(response: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { ...response, presentationAmount: response['amount'], presentationCurrency: response['currency'] };
}

/** A stored body without the connector's details in its payload (parsed only when it may hold some). */
function storedBodyWithoutConnectorDetails(body: string): string {
  if (!body.includes('"resultDetails"')) return body;
  const parsed = JSON.parse(body) as Record<string, unknown>;
  const payload = parsed['payload'];
  if (payload === null || typeof payload !== 'object') return body;
  const filtered = withoutConnectorDetails(payload as Record<string, unknown>);
  return filtered === payload ? body : JSON.stringify({ ...parsed, payload: filtered });
}

/**
 * The body of a delivery: the stored one, or one built from the transaction the notification
 * names; without the connector's details when the receiving entity hides them.
 */
export function deliveryBody(delivery: Pick<DeliveryToSend, 'notificationId' | 'notificationType' | 'notificationAction' | 'body' | 'transactionResponse' | 'showConnectorDetails'>): string {
  const shown = delivery.showConnectorDetails !== false;
  if (delivery.body !== null) return shown ? delivery.body : storedBodyWithoutConnectorDetails(delivery.body);
  if (!delivery.transactionResponse) throw new Error(`notification ${delivery.notificationId} has neither a body nor a transaction`);
  const payment = paymentForMerchant(delivery.transactionResponse, shown);
  return notificationBody({ id: delivery.notificationId, type: delivery.notificationType, action: delivery.notificationAction, payload: paymentPayload(payment) });
}

/** The body of a webhook's test notification. */
export function testNotificationBody(id: string, webhook: { readonly id: string; readonly entityId: string }): string {
  return notificationBody({
    id,
    type: 'TEST',
    action: null,
    payload: { webhookId: webhook.id, entityId: webhook.entityId, message: 'test notification: answer with any 2xx status' },
  });
}

/**
 * The HTTP request of one attempt. A webhook's body is encrypted under its key with a fresh IV
 * each time (hex body, text/plain, IV and tag headers); a notificationUrl has no key, so it gets
 * the JSON in clear.
 */
export function buildNotificationRequest(delivery: Pick<DeliveryToSend, 'url' | 'secret' | 'notificationId' | 'localReceivers'> & { readonly body: string }): NotificationRequest {
  const common = { 'X-Notification-Id': delivery.notificationId, 'User-Agent': NOTIFICATION_USER_AGENT };
  if (delivery.secret === null) {
    return { url: delivery.url, headers: { ...common, 'Content-Type': 'application/json' }, body: delivery.body };
  }
  const local = delivery.localReceivers && delivery.localReceivers.length > 0 ? { localReceivers: delivery.localReceivers } : {};
  const encrypted = encryptNotification(delivery.body, delivery.secret);
  return {
    url: delivery.url,
    headers: {
      ...common,
      'Content-Type': 'text/plain',
      'X-Initialization-Vector': encrypted.ivHex,
      'X-Authentication-Tag': encrypted.tagHex,
    },
    body: encrypted.bodyHex,
    ...local,
  };
}
