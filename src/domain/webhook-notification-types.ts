/**
 * The notification types a webhook subscribes to (docs/webhooks.md, "Notification types"). The
 * specification names two, PAYMENT and REGISTRATION: a webhook gets those unless it asks for
 * others. SCHEDULE and RISK are this gateway's own additions, and TEST the handshake a webhook
 * is sent when it is registered or tested: a receiver written for the specification would not
 * expect them, so they come only when asked for.
 */
export const NOTIFICATION_TYPES = ['PAYMENT', 'REGISTRATION', 'SCHEDULE', 'RISK', 'TEST'] as const;
export type SubscribableNotificationType = (typeof NOTIFICATION_TYPES)[number];

export const DEFAULT_NOTIFICATION_TYPES: readonly SubscribableNotificationType[] = ['PAYMENT', 'REGISTRATION'];

export type NotificationTypesParse =
  | { readonly ok: true; readonly types: readonly SubscribableNotificationType[] }
  | { readonly ok: false; readonly message: string };

function isNotificationType(name: string): name is SubscribableNotificationType {
  return (NOTIFICATION_TYPES as readonly string[]).includes(name);
}

/**
 * `PAYMENT,SCHEDULE` (commas, spaces or both between names; any case) → the types in their
 * canonical order, each once; absent → the default. An empty list or an unknown name is refused:
 * a webhook that silently hears nothing is worse than an error at registration.
 */
export function parseNotificationTypes(text: string | undefined): NotificationTypesParse {
  if (text === undefined) return { ok: true, types: DEFAULT_NOTIFICATION_TYPES };
  const names = text.split(/[\s,]+/).filter((name) => name !== '').map((name) => name.toUpperCase());
  const expected = `a comma-separated list of ${NOTIFICATION_TYPES.join(', ')}`;
  if (names.length === 0) return { ok: false, message: `must name at least one type: ${expected}` };
  const unknown = names.find((name) => !isNotificationType(name));
  if (unknown !== undefined) return { ok: false, message: `unknown notification type ${unknown}: must be ${expected}` };
  return { ok: true, types: NOTIFICATION_TYPES.filter((type) => names.includes(type)) };
}
