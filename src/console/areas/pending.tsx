import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { visibilityOf } from '../../domain/access/actor.js';
import { isOperatorRole } from '../../domain/access/roles.js';
import { parsePendingFilter, pendingQueue, PENDING_QUEUE_ROWS } from '../../operations/console/pending-queue.js';
import { GatewayError } from '../../results/gateway-error.js';
import { PENDING_PATH, PendingQueuePage } from '../pages/pending/pending-queue-page.js';
import { sendPage } from '../render.js';
import '../route-config.js';

type Query = { Querystring: Record<string, unknown> };

async function showQueue(request: FastifyRequest<Query>, reply: FastifyReply): Promise<FastifyReply> {
  const user = request.consoleUser!;
  const gateway = request.server.gateway;
  const visibility = visibilityOf(user);
  const text = (name: string) => (typeof request.query[name] === 'string' ? String(request.query[name]) : '');
  const props = {
    user, system: gateway.config.system, csrfToken: request.consoleCsrfToken, now: gateway.clock.now(), limit: PENDING_QUEUE_ROWS,
    form: { merchant: text('merchant'), connector: text('connector'), olderThan: text('olderThan') }, mayChooseMerchant: isOperatorRole(user.role),
    firstCheckDelayMinutes: gateway.config.resolution.checkDelaysMinutes[0] ?? 0,
  };
  try {
    const rows = await pendingQueue(gateway, visibility, parsePendingFilter(request.query, visibility));
    return sendPage(reply, <PendingQueuePage {...props} error={undefined} rows={rows} />);
  } catch (error) {
    const refused = error instanceof GatewayError ? error.parameterErrors?.[0] : undefined;
    if (!refused) throw error;
    return sendPage(reply, <PendingQueuePage {...props} error={{ field: refused.name, message: refused.message }} rows={[]} />, 400);
  }
}

/**
 * Pending payments (GET /console/pending): the queue. Resolving one by hand is the payment
 * page's action (POST /console/payments/:id/resolve, payments.resolve-pending), linked from each row.
 */
export function registerPending(app: FastifyInstance): void {
  app.get<Query>(PENDING_PATH, { config: { console: 'pending.view' } }, showQueue);
}
