import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpNotificationSender } from '../../jobs/http-sender.js';
import { adminField as field } from '../admin-fields.js';
import { createWebhook } from '../../operations/webhooks/create-webhook.js';
import { deactivateWebhook, deleteWebhook } from '../../operations/webhooks/deactivate-webhook.js';
import { listWebhookAttempts } from '../../operations/webhooks/list-attempts.js';
import { getWebhook, listWebhooks } from '../../operations/webhooks/list-webhooks.js';
import type { NotificationSender, TargetRulesDeps, WebhookDeps } from '../../operations/webhooks/ports.js';
import { resendDelivery } from '../../operations/webhooks/resend-delivery.js';
import { setLocalReceivers, showLocalReceivers } from '../../operations/webhooks/local-receivers.js';
import { activateWebhook, testWebhook } from '../../operations/webhooks/test-webhook.js';
import { deliveryNotFound, invalidParameter, webhookNotFound } from '../../operations/webhooks/webhook-errors.js';
import { sendWithEnvelope } from '../reply.js';
import { recordCompletedChange, withAudit, type AuditedChange } from '../../operations/audit/audited.js';
import { adminActor } from '../admin-actor.js';
import { entitySettingChange } from '../../operations/audit/entity-snapshot.js';
import type { Queryable } from '../../storage/port.js';

async function entityOfWebhook(db: Queryable, webhookId: string): Promise<string | null> {
  const result = await db.query<{ entity_id: string }>('SELECT entity_id FROM webhooks WHERE id = $1', [webhookId]);
  return result.rows[0]?.entity_id.trim() ?? null;
}

/** A webhook's change: its view (never the secret, which the audit log masks by name anyway). */
function webhookChange(action: string, webhookId: string | undefined): AuditedChange<unknown> {
  return {
    action,
    target: (result) => ({ kind: 'webhook', id: webhookId ?? String((result as { webhookId?: unknown }).webhookId) }),
    entityId: (result, db) => (webhookId ? entityOfWebhook(db, webhookId) : String((result as { entityId?: unknown }).entityId)),
    before: webhookId ? async (db) => (await db.query('SELECT url, status, notification_types FROM webhooks WHERE id = $1', [webhookId])).rows[0] ?? null : undefined,
    after: (result) => result,
  };
}

const admin = { config: { auth: 'admin' as const } };
const OK = '000.000.100';
const ID_PATTERN = /^[0-9a-f]{32}$/;
const DEFAULT_MAX_SOCKETS_PER_HOST = 8;

export interface WebhookAdminRouteOptions {
  /** Sends tests and resends; defaults to HTTP limited by WEBHOOK_TIMEOUT_MS. */
  readonly sender?: NotificationSender | undefined;
}

type WebhookParams = { Params: { webhookId: string } };

// A malformed id cannot name a webhook: the same 404 as an unknown one.
function webhookIdOf(request: FastifyRequest<WebhookParams>): string {
  const id = request.params.webhookId;
  if (!ID_PATTERN.test(id)) throw webhookNotFound(id);
  return id;
}

function limitOf(request: FastifyRequest): number | undefined {
  const raw = field(request.query, 'limit', false);
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,6}$/.test(raw)) throw invalidParameter('limit', raw, 'must be a whole number');
  return Number(raw);
}

/**
 * The operator's webhook API (guarded by ADMIN_TOKEN): register, list, activate, deactivate,
 * delete, test, list attempts, resend, and (test system) an entity's local receivers. Test, activate and resend call the receiver before
 * they answer, so they may take up to the webhook timeout.
 */
export function registerWebhookAdminRoutes(app: FastifyInstance, options: WebhookAdminRouteOptions = {}): void {
  const sender = options.sender ?? ownSender(app);
  const deps: WebhookDeps & TargetRulesDeps = { ...app.gateway, sender, webhookTargets: app.gateway.config.workers.webhookTargets };
  // Calls that reach the receiver before they answer: recorded once done, not in a transaction held across the call.
  const called = async <T>(request: FastifyRequest<WebhookParams>, action: string, run: () => Promise<T>): Promise<T> => {
    const result = await run();
    const webhookId = webhookIdOf(request);
    await recordCompletedChange(deps, adminActor(request), { action, target: { kind: 'webhook', id: webhookId }, entityId: await entityOfWebhook(deps.storage, webhookId), after: result });
    return result;
  };

  app.post('/admin/webhooks', admin, async (request, reply) => {
    const input = { entityId: field(request.body, 'entity', true)!, url: field(request.body, 'url', true)!, types: field(request.body, 'types', false) };
    const created = await withAudit(deps, adminActor(request), (scoped) => createWebhook(scoped, input), webhookChange('webhooks.create', undefined));
    return sendWithEnvelope(request, reply, 201, created, OK);
  });
  app.get('/admin/webhooks', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, { webhooks: await listWebhooks(deps, field(request.query, 'entity', false)) }, OK),
  );
  app.get<WebhookParams>('/admin/webhooks/:webhookId', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await getWebhook(deps, webhookIdOf(request)), OK),
  );
  app.post<WebhookParams>('/admin/webhooks/:webhookId/activate', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await called(request, 'webhooks.activate', () => activateWebhook(deps, webhookIdOf(request))), OK),
  );
  app.post<WebhookParams>('/admin/webhooks/:webhookId/deactivate', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await withAudit(deps, adminActor(request), (scoped) => deactivateWebhook(scoped, webhookIdOf(request)), webhookChange('webhooks.deactivate', webhookIdOf(request))), OK),
  );
  app.delete<WebhookParams>('/admin/webhooks/:webhookId', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await withAudit(deps, adminActor(request), (scoped) => deleteWebhook(scoped, webhookIdOf(request)), webhookChange('webhooks.delete', webhookIdOf(request))), OK),
  );
  app.post<WebhookParams>('/admin/webhooks/:webhookId/test', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await called(request, 'webhooks.test', () => testWebhook(deps, webhookIdOf(request))), OK),
  );
  app.get<WebhookParams>('/admin/webhooks/:webhookId/attempts', admin, async (request, reply) => {
    const attempts = await listWebhookAttempts(deps, webhookIdOf(request), limitOf(request));
    return sendWithEnvelope(request, reply, 200, { attempts }, OK);
  });
  app.post<{ Params: { deliveryId: string } }>('/admin/webhooks/deliveries/:deliveryId/resend', admin, async (request, reply) => {
    const id = request.params.deliveryId;
    if (!ID_PATTERN.test(id)) throw deliveryNotFound(id);
    const resent = await resendDelivery(deps, id);
    const webhookId = String((resent as { webhookId?: unknown }).webhookId ?? '');
    await recordCompletedChange(deps, adminActor(request), { action: 'notifications.resend', target: { kind: 'webhook-delivery', id }, entityId: webhookId ? await entityOfWebhook(deps.storage, webhookId) : null, after: resent });
    return sendWithEnvelope(request, reply, 200, resent, OK);
  });
  // Test system: the loopback receivers the entity's webhooks may reach; read at each delivery, so no restart.
  app.get<{ Params: { entityId: string } }>('/admin/entities/:entityId/webhook-local-receivers', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await showLocalReceivers(deps, request.params.entityId), OK),
  );
  app.put<{ Params: { entityId: string } }>('/admin/entities/:entityId/webhook-local-receivers', admin, async (request, reply) => {
    const receivers = (request.body as Record<string, unknown> | undefined)?.['receivers'] === '' ? '' : field(request.body, 'receivers', true)!;
    const { entityId } = request.params;
    return sendWithEnvelope(request, reply, 200, await withAudit(deps, adminActor(request), (scoped) => setLocalReceivers(scoped, entityId, receivers), entitySettingChange('webhooks.local-receivers', entityId)), OK);
  });
}

function ownSender(app: FastifyInstance): NotificationSender {
  const { webhookTimeoutMs, webhookTargets } = app.gateway.config.workers;
  const sender = httpNotificationSender({ timeoutMs: webhookTimeoutMs, maxSocketsPerHost: DEFAULT_MAX_SOCKETS_PER_HOST, targets: webhookTargets });
  app.addHook('onClose', async () => sender.close());
  return sender;
}
