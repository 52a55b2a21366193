import { currentTraceParent } from '../../observability/tracing/job-trace.js';
import type { Queryable } from '../../storage/port.js';
import { fanOutNotifications, type FanOut } from '../../storage/repositories/webhooks.js';
import type { OperationDeps } from '../deps.js';
import { checkNotificationUrl } from './check-url.js';
import { notificationBody } from './notification-message.js';
import { DELIVER_WEBHOOK_JOB } from './ports.js';

/** RISK: a payment the risk engine rejected or sent to review (its payload is the payment's). */
export type NotificationType = 'PAYMENT' | 'REGISTRATION' | 'SCHEDULE' | 'RISK';
/** SCHEDULE: CREATED, RESCHEDULED, DESCHEDULED, ENDED (docs/schedules.md). */
export type NotificationAction = 'CREATED' | 'UPDATED' | 'DELETED' | 'RESCHEDULED' | 'DESCHEDULED' | 'ENDED';

interface NotificationTarget {
  /** The entity the payment or registration belongs to (a channel or a merchant). */
  readonly entityId: string;
  readonly type: NotificationType;
  /** Always set for REGISTRATION; optional for PAYMENT. */
  readonly action?: NotificationAction | undefined;
  /** The request's deprecated notificationUrl: honoured, sent in clear (it has no key). */
  readonly notificationUrl?: string | undefined;
}

/**
 * What the notification says: the object the API answered with (never a card number in clear),
 * or, for a payment, its transaction, whose stored response is that object (paymentPayload).
 */
export type NotificationInput = NotificationTarget & (
  | { readonly payload: Readonly<Record<string, unknown>>; readonly transactionId?: undefined }
  | { readonly transactionId: string; readonly payload?: undefined }
);

export interface EnqueuedNotification {
  /** The stable id every receiver sees in the body (`id`) and in X-Notification-Id. */
  readonly notificationId: string;
  /** How many deliveries were queued; 0 when nobody listens (then nothing is written). */
  readonly deliveries: number;
}

/**
 * The outbox row of one event, ready to be written: its id, its body (or its transaction), its
 * targets' rule. Pure apart from the id and the clock, so that group commit can write many in one
 * statement.
 */
export function prepareNotification(input: NotificationInput, deps: Pick<OperationDeps, 'clock' | 'ids'>): FanOut {
  if (input.type !== 'PAYMENT' && input.type !== 'RISK' && !input.action) throw new Error(`a ${input.type} notification needs an action`);
  const notificationUrl = input.notificationUrl === undefined ? null : checkNotificationUrl('notificationUrl', input.notificationUrl);
  const id = deps.ids.id();
  const action = input.action ?? null;
  // By reference, the body costs nothing now; it is built if and when somebody is sent it.
  const body = input.payload ? notificationBody({ id, type: input.type, action, payload: input.payload }) : null;
  const transactionId = input.transactionId ?? null;
  // Taken here, in the request's context: group commit writes it later, in another.
  return { notification: { id, entityId: input.entityId, type: input.type, action, body, transactionId, createdAt: deps.clock.now() }, notificationUrl, jobKind: DELIVER_WEBHOOK_JOB, traceParent: currentTraceParent() };
}

/**
 * The outbox call for payment and registration operations: call it inside the transaction that
 * stores the change, so the notification exists exactly when the change does. It fans out one
 * delivery per active webhook of the entity and, for a channel, of its merchant, plus one for a
 * notificationUrl; workers deliver them after the commit.
 */
export async function enqueueNotification(
  tx: Queryable,
  input: NotificationInput,
  deps: Pick<OperationDeps, 'clock' | 'ids'>,
): Promise<EnqueuedNotification> {
  const fanOut = prepareNotification(input, deps);
  const deliveries = await fanOutNotifications(tx, [fanOut]);
  return { notificationId: fanOut.notification.id, deliveries };
}
