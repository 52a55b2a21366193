import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { visibilityOf } from '../../domain/access/actor.js';
import type { Action } from '../../domain/access/permissions.js';
import { httpNotificationSender } from '../../jobs/http-sender.js';
import type { ConsoleActor } from '../../operations/console/console-action.js';
import { loadPaymentDetail } from '../../operations/console/load-payment-detail.js';
import { referenceFromConsole, type ConsoleReferenceType } from '../../operations/console/reference-from-console.js';
import { resendFromConsole } from '../../operations/console/resend-from-console.js';
import { resolvePendingFromConsole } from '../../operations/console/resolve-pending-from-console.js';
import type { NotificationSender } from '../../operations/webhooks/ports.js';
import { GatewayError } from '../../results/gateway-error.js';
import { formField } from '../form-fields.js';
import { Layout } from '../pages/layout.js';
import type { ActionFormState, PaymentActionName } from '../pages/payment-detail/action-form.js';
import { flashLocation, flashOf } from '../pages/payment-detail/flash.js';
import { PaymentDetailPage } from '../pages/payment-detail/payment-detail-page.js';
import { sendPage } from '../render.js';
import '../route-config.js';

// Resends are one at a time, by hand: a few sockets per receiver are plenty (as the admin API's).
const MAX_SOCKETS_PER_HOST = 8;

type Params = { Params: { id: string }; Querystring: Record<string, string | undefined> };

function consoleActorOf(request: FastifyRequest): ConsoleActor {
  const user = request.consoleUser!;
  return { actor: { kind: 'user', userId: user.id, email: user.email, role: user.role, merchantId: user.merchantId, address: request.ip }, visibility: visibilityOf(user) };
}

function isNotFound(error: unknown): boolean {
  return error instanceof GatewayError && error.code === '700.400.580' && error.httpStatus === 404;
}

function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const page = (
    <Layout title="No such payment" user={request.consoleUser} system={request.server.gateway.config.system} path={request.url} csrfToken={request.consoleCsrfToken}>
      <p>There is no payment with this id that you may see. <a href="/console/payments">Search payments</a>.</p>
    </Layout>
  );
  return sendPage(reply, page, 404);
}

async function showDetail(request: FastifyRequest<Params>, reply: FastifyReply, formState?: ActionFormState): Promise<FastifyReply> {
  const gateway = request.server.gateway;
  let detail;
  try {
    detail = await loadPaymentDetail(gateway, { transactionId: request.params.id, visibility: visibilityOf(request.consoleUser!) });
  } catch (error) {
    if (isNotFound(error)) return sendNotFound(request, reply);
    throw error;
  }
  const page = (
    <PaymentDetailPage detail={detail} user={request.consoleUser!} system={gateway.config.system} path={`/console/payments/${detail.payment.id}`}
      csrfToken={request.consoleCsrfToken} nonce={() => randomBytes(16).toString('hex')} flash={formState ? undefined : flashOf(request.query, detail)} formState={formState} />
  );
  return sendPage(reply, page, formState ? 400 : 200);
}

/** A refusal of the form's content re-renders the page with the messages; a foreign or missing id is a 404. */
async function answerError(request: FastifyRequest<Params>, reply: FastifyReply, action: PaymentActionName, subject: string | undefined, error: unknown): Promise<FastifyReply> {
  if (isNotFound(error)) return sendNotFound(request, reply);
  if (!(error instanceof GatewayError) || !error.parameterErrors) throw error;
  const values = { amount: formField(request, 'amount'), reason: formField(request, 'reason'), outcome: formField(request, 'outcome') };
  const errors = Object.fromEntries(error.parameterErrors.map((p) => [p.name, p.message]));
  return showDetail(request, reply, { action, subject, values, errors });
}

function registerReference(app: FastifyInstance, action: PaymentActionName, paymentType: ConsoleReferenceType, access: Action): void {
  app.post<Params>(`/console/payments/:id/${action}`, { config: { console: access } }, async (request, reply) => {
    try {
      const result = await referenceFromConsole(request.server.gateway.payments, {
        ...consoleActorOf(request), parentId: request.params.id, paymentType, amount: formField(request, 'amount'), nonce: formField(request, 'nonce'),
      });
      return reply.redirect(flashLocation(request.params.id, action, result), 303);
    } catch (error) {
      return answerError(request, reply, action, undefined, error);
    }
  });
}

function registerResolve(app: FastifyInstance): void {
  app.post<Params>('/console/payments/:id/resolve', { config: { console: 'payments.resolve-pending' } }, async (request, reply) => {
    const transactionId = formField(request, 'transaction') || request.params.id;
    try {
      const result = await resolvePendingFromConsole(request.server.gateway.payments, {
        ...consoleActorOf(request), transactionId, outcome: formField(request, 'outcome'), reason: formField(request, 'reason'),
      });
      return reply.redirect(flashLocation(request.params.id, 'resolve', result), 303);
    } catch (error) {
      return answerError(request, reply, 'resolve', transactionId, error);
    }
  });
}

function registerResend(app: FastifyInstance, sender: NotificationSender): void {
  app.post<Params>('/console/payments/:id/resend', { config: { console: 'notifications.resend' } }, async (request, reply) => {
    const deliveryId = formField(request, 'delivery');
    try {
      await resendFromConsole({ ...request.server.gateway, sender }, { ...consoleActorOf(request), paymentId: request.params.id, deliveryId });
      return reply.redirect(flashLocation(request.params.id, 'resend', { kind: 'resent', deliveryId }), 303);
    } catch (error) {
      return answerError(request, reply, 'resend', deliveryId, error);
    }
  });
}

/** The sender the admin API's resend uses: the app's own when a test passes one, else HTTP with the operator's rules. */
function senderOf(app: FastifyInstance): NotificationSender {
  if (app.gateway.notificationSender) return app.gateway.notificationSender;
  const { webhookTimeoutMs, webhookTargets } = app.gateway.config.workers;
  const sender = httpNotificationSender({ timeoutMs: webhookTimeoutMs, maxSocketsPerHost: MAX_SOCKETS_PER_HOST, targets: webhookTargets });
  app.addHook('onClose', async () => sender.close());
  return sender;
}

/**
 * A payment's page (GET /console/payments/:id) and its actions, each a POST that redirects back
 * (303) with what it came to. Every action goes through the API's own operation and is audited.
 */
export function registerPaymentDetail(app: FastifyInstance): void {
  app.get<Params>('/console/payments/:id', { config: { console: 'payments.view' } }, (request, reply) => showDetail(request, reply));
  registerReference(app, 'capture', 'CP', 'payments.capture');
  registerReference(app, 'refund', 'RF', 'payments.refund');
  registerReference(app, 'reverse', 'RV', 'payments.reverse');
  registerResolve(app);
  registerResend(app, senderOf(app));
}
