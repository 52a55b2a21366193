import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpNotificationSender } from '../../jobs/http-sender.js';
import { readDeliveryLog, resendDeveloperDelivery, viewDeliveryRequest } from '../../operations/developers/delivery-log.js';
import { merchantInScope } from '../../operations/developers/developer-scope.js';
import {
  activateDeveloperWebhook, cancelDeveloperWebhookRotation, confirmDeveloperWebhookSecret, createDeveloperWebhook, deactivateDeveloperWebhook, deleteDeveloperWebhook,
  getDeveloperWebhook, listDeveloperWebhooks, rotateDeveloperWebhookSecret, testDeveloperWebhook,
} from '../../operations/developers/webhooks.js';
import type { NotificationSender } from '../../operations/webhooks/ports.js';
import { parseOverlapHours } from '../../operations/webhooks/rotate-webhook-secret.js';
import { invalidParameter } from '../../operations/webhooks/webhook-errors.js';
import { listMerchants } from '../../storage/repositories/developer-entities.js';
import { developerActorOf, fieldOf, frameOf, sendRefusal, sendSecretPage } from '../pages/developers/developer-request.js';
import { DeliveryRequestPage, WebhookDetailPage } from '../pages/developers/webhook-detail-page.js';
import { DeleteWebhookPage, RotationStartedPage, WEBHOOKS, WebhookCreatedPage, WebhooksPage } from '../pages/developers/webhooks-pages.js';
import { sendPage } from '../render.js';
import '../route-config.js';

// Tests and resends are one at a time, by hand: a few sockets per receiver are plenty.
const MAX_SOCKETS_PER_HOST = 8;

type WebhookParams = { Params: { webhookId: string } };
type DeliveryParams = { Params: { deliveryId: string } };

/** The app's sender when a test passes one, else HTTP under the operator's target rules. */
function senderOf(app: FastifyInstance): () => NotificationSender {
  const own = app.gateway.notificationSender;
  if (own) return () => own;
  const { webhookTimeoutMs, webhookTargets } = app.gateway.config.workers;
  const sender = httpNotificationSender({ timeoutMs: webhookTimeoutMs, maxSocketsPerHost: MAX_SOCKETS_PER_HOST, targets: webhookTargets });
  app.addHook('onClose', async () => sender.close());
  return () => sender;
}

function listHref(request: FastifyRequest, done?: string): string {
  const params = new URLSearchParams();
  const merchant = request.consoleUser!.merchantId === null ? fieldOf(request.body ?? request.query, 'merchant') : '';
  if (merchant) params.set('merchant', merchant);
  if (done) params.set('done', done);
  return params.size > 0 ? `${WEBHOOKS}?${params}` : WEBHOOKS;
}

async function showList(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const deps = request.server.gateway;
  const { visibility } = developerActorOf(request);
  const merchantId = await merchantInScope(deps.storage, visibility, fieldOf(request.query, 'merchant'));
  const merchants = visibility.kind === 'all' ? await listMerchants(deps.storage) : undefined;
  const overview = merchantId ? await listDeveloperWebhooks(deps, visibility, merchantId) : undefined;
  const done = fieldOf(request.query, 'done') || undefined;
  return sendPage(reply, <WebhooksPage frame={frameOf(request, WEBHOOKS)} merchants={merchants} merchantId={merchantId} overview={overview} done={done} />);
}

async function showDetail(request: FastifyRequest<WebhookParams>, reply: FastifyReply): Promise<FastifyReply> {
  const deps = request.server.gateway;
  const { visibility } = developerActorOf(request);
  const webhook = await getDeveloperWebhook(deps, visibility, request.params.webhookId);
  const log = await readDeliveryLog(deps, visibility, webhook.webhookId, fieldOf(request.query, 'before') || undefined);
  const done = fieldOf(request.query, 'done') || undefined;
  return sendPage(reply, <WebhookDetailPage frame={frameOf(request, WEBHOOKS)} webhook={webhook} log={log} done={done} />);
}

/** A page or change of the area: a refusal (or another merchant's id: 404) is answered as a page. */
function guarded<R extends FastifyRequest<any>>(handler: (request: R, reply: FastifyReply) => Promise<FastifyReply>) {
  return async (request: R, reply: FastifyReply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      return sendRefusal(request, reply, error, { href: WEBHOOKS, label: 'Back to the webhooks' });
    }
  };
}

/** A checkbox the page requires (the browser asks too; a hand-made request must say it as well). */
function requireTicked(request: FastifyRequest, name: string, message: string): void {
  if (fieldOf(request.body, name) !== 'yes') throw invalidParameter(name, fieldOf(request.body, name), message);
}

function registerSecretChanges(app: FastifyInstance): void {
  const manage = { config: { console: 'webhooks.manage' as const } };
  const detail = (request: FastifyRequest<WebhookParams>, done: string) => `${WEBHOOKS}/${request.params.webhookId}?done=${done}`;
  app.post<WebhookParams>(`${WEBHOOKS}/:webhookId/rotate`, manage, guarded(async (request, reply) => {
    const hours = parseOverlapHours(fieldOf(request.body, 'overlapHours'));
    const rotation = await rotateDeveloperWebhookSecret(request.server.gateway, developerActorOf(request), request.params.webhookId, hours);
    return sendSecretPage(reply, <RotationStartedPage frame={frameOf(request, WEBHOOKS)} rotation={rotation} />);
  }));
  app.post<WebhookParams>(`${WEBHOOKS}/:webhookId/confirm-secret`, manage, guarded(async (request, reply) => {
    requireTicked(request, 'installed', 'tick the box once your receiver holds the new secret');
    await confirmDeveloperWebhookSecret(request.server.gateway, developerActorOf(request), request.params.webhookId);
    return reply.redirect(detail(request, 'secret-switched'), 303);
  }));
  app.post<WebhookParams>(`${WEBHOOKS}/:webhookId/cancel-rotation`, manage, guarded(async (request, reply) => {
    await cancelDeveloperWebhookRotation(request.server.gateway, developerActorOf(request), request.params.webhookId);
    return reply.redirect(detail(request, 'rotation-cancelled'), 303);
  }));
}

function registerChanges(app: FastifyInstance, sender: () => NotificationSender): void {
  const manage = { config: { console: 'webhooks.manage' as const } };
  const detail = (request: FastifyRequest<WebhookParams>, done: string) => `${WEBHOOKS}/${request.params.webhookId}?done=${done}`;
  app.post(WEBHOOKS, manage, guarded(async (request, reply) => {
    const deps = { ...request.server.gateway, webhookTargets: request.server.gateway.config.workers.webhookTargets };
    const input = { entityId: fieldOf(request.body, 'entity'), url: fieldOf(request.body, 'url'), types: fieldOf(request.body, 'types') || undefined };
    const created = await createDeveloperWebhook(deps, developerActorOf(request), input);
    return sendSecretPage(reply, <WebhookCreatedPage frame={frameOf(request, WEBHOOKS)} created={created} />);
  }));
  app.post<WebhookParams>(`${WEBHOOKS}/:webhookId/test`, manage, guarded(async (request, reply) => {
    const who = developerActorOf(request);
    const webhook = await getDeveloperWebhook(request.server.gateway, who.visibility, request.params.webhookId);
    // A webhook that never acknowledged a test may not hold its secret yet: the person says it does.
    if (webhook.status === 'pending') requireTicked(request, 'stored', 'tick the box once your receiver holds the secret');
    await testDeveloperWebhook({ ...request.server.gateway, sender: sender() }, who, webhook.webhookId);
    return reply.redirect(detail(request, 'tested'), 303);
  }));
  app.post<WebhookParams>(`${WEBHOOKS}/:webhookId/activate`, manage, guarded(async (request, reply) => {
    await activateDeveloperWebhook({ ...request.server.gateway, sender: sender() }, developerActorOf(request), request.params.webhookId);
    return reply.redirect(detail(request, 'activated'), 303);
  }));
  app.post<WebhookParams>(`${WEBHOOKS}/:webhookId/deactivate`, manage, guarded(async (request, reply) => {
    await deactivateDeveloperWebhook(request.server.gateway, developerActorOf(request), request.params.webhookId);
    return reply.redirect(detail(request, 'deactivated'), 303);
  }));
  app.get<WebhookParams>(`${WEBHOOKS}/:webhookId/delete`, manage, guarded(async (request, reply) => {
    const webhook = await getDeveloperWebhook(request.server.gateway, developerActorOf(request).visibility, request.params.webhookId);
    return sendPage(reply, <DeleteWebhookPage frame={frameOf(request, WEBHOOKS)} webhook={webhook} />);
  }));
  app.post<WebhookParams>(`${WEBHOOKS}/:webhookId/delete`, manage, guarded(async (request, reply) => {
    await deleteDeveloperWebhook(request.server.gateway, developerActorOf(request), request.params.webhookId);
    return reply.redirect(listHref(request, 'deleted'), 303);
  }));
  app.post<DeliveryParams>(`${WEBHOOKS}/deliveries/:deliveryId/resend`, { config: { console: 'notifications.resend' } }, guarded(async (request, reply) => {
    const outcome = await resendDeveloperDelivery({ ...request.server.gateway, sender: sender() }, developerActorOf(request), request.params.deliveryId);
    return reply.redirect(`${WEBHOOKS}/${outcome.webhookId}?done=resent`, 303);
  }));
  registerSecretChanges(app);
}

/**
 * Webhooks (issue 31, developers' self-service): list, register (the secret shown once), a test
 * offered once the receiver holds the secret, secret rotation with an overlap, deactivate, delete,
 * the delivery log with each request as sent, resend. Every change is audited.
 */
export function registerDeveloperWebhooks(app: FastifyInstance): void {
  const view = { config: { console: 'webhooks.view' as const } };
  app.get(WEBHOOKS, view, guarded(showList));
  app.get<WebhookParams>(`${WEBHOOKS}/:webhookId`, view, guarded(showDetail));
  app.get<DeliveryParams>(`${WEBHOOKS}/deliveries/:deliveryId`, view, guarded(async (request, reply) => {
    const deliveryView = await viewDeliveryRequest(request.server.gateway, developerActorOf(request).visibility, request.params.deliveryId);
    return sendPage(reply, <DeliveryRequestPage frame={frameOf(request, WEBHOOKS)} view={deliveryView} />);
  }));
  registerChanges(app, senderOf(app));
}
