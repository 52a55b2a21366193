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

  app.post('/admin/webhooks', admin, async (request, reply) => {
    const created = await createWebhook(deps, { entityId: field(request.body, 'entity', true)!, url: field(request.body, 'url', true)!, types: field(request.body, 'types', false) });
    return sendWithEnvelope(request, reply, 201, created, OK);
  });
  app.get('/admin/webhooks', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, { webhooks: await listWebhooks(deps, field(request.query, 'entity', false)) }, OK),
  );
  app.get<WebhookParams>('/admin/webhooks/:webhookId', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await getWebhook(deps, webhookIdOf(request)), OK),
  );
  app.post<WebhookParams>('/admin/webhooks/:webhookId/activate', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await activateWebhook(deps, webhookIdOf(request)), OK),
  );
  app.post<WebhookParams>('/admin/webhooks/:webhookId/deactivate', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await deactivateWebhook(deps, webhookIdOf(request)), OK),
  );
  app.delete<WebhookParams>('/admin/webhooks/:webhookId', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await deleteWebhook(deps, webhookIdOf(request)), OK),
  );
  app.post<WebhookParams>('/admin/webhooks/:webhookId/test', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await testWebhook(deps, webhookIdOf(request)), OK),
  );
  app.get<WebhookParams>('/admin/webhooks/:webhookId/attempts', admin, async (request, reply) => {
    const attempts = await listWebhookAttempts(deps, webhookIdOf(request), limitOf(request));
    return sendWithEnvelope(request, reply, 200, { attempts }, OK);
  });
  app.post<{ Params: { deliveryId: string } }>('/admin/webhooks/deliveries/:deliveryId/resend', admin, async (request, reply) => {
    const id = request.params.deliveryId;
    if (!ID_PATTERN.test(id)) throw deliveryNotFound(id);
    return sendWithEnvelope(request, reply, 200, await resendDelivery(deps, id), OK);
  });
  // Test system: the loopback receivers the entity's webhooks may reach; read at each delivery, so no restart.
  app.get<{ Params: { entityId: string } }>('/admin/entities/:entityId/webhook-local-receivers', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await showLocalReceivers(deps, request.params.entityId), OK),
  );
  app.put<{ Params: { entityId: string } }>('/admin/entities/:entityId/webhook-local-receivers', admin, async (request, reply) => {
    const receivers = (request.body as Record<string, unknown> | undefined)?.['receivers'] === '' ? '' : field(request.body, 'receivers', true)!;
    return sendWithEnvelope(request, reply, 200, await setLocalReceivers(deps, request.params.entityId, receivers), OK);
  });
}

function ownSender(app: FastifyInstance): NotificationSender {
  const { webhookTimeoutMs, webhookTargets } = app.gateway.config.workers;
  const sender = httpNotificationSender({ timeoutMs: webhookTimeoutMs, maxSocketsPerHost: DEFAULT_MAX_SOCKETS_PER_HOST, targets: webhookTargets });
  app.addHook('onClose', async () => sender.close());
  return sender;
}
