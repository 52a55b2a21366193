import type { FastifyInstance, FastifyRequest } from 'fastify';
import { prometheusContentType as contentType } from 'prom-client';
import { isOnAllowList } from '../../domain/webhook-address.js';
import { authenticateAdminRequest, checkCredentialsPresent } from '../plugins/authentication.js';

/**
 * GET /metrics: the Prometheus scrape. On the admin listener (ADMIN_PORT) anyone who reaches the
 * listener may read it, as they may reach /admin's door; on the public listener it asks for the
 * admin token unless the scraper's address is on METRICS_ALLOW_FROM. Metrics hold no card data and
 * no ids, but volumes and error rates are the operator's business, not the internet's.
 */
export function registerMetricsRoute(app: FastifyInstance, listener: 'admin' | 'public'): void {
  const { config, nodeMetricsText } = app.gateway;
  if (!config.metrics.enabled || !nodeMetricsText) return;
  app.get('/metrics', { config: { auth: 'public' }, preHandler: listener === 'public' ? (request) => guardPublicScrape(request) : undefined }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      return reply.header('content-type', contentType).send(await nodeMetricsText());
    } catch (error) {
      // A part of the node's figures (this process's alone) would read as counters reset: the
      // scrape fails instead, and Prometheus's `up` says so.
      request.log.warn({ err: error }, 'metrics scrape failed');
      return reply.code(503).header('content-type', 'text/plain; charset=utf-8').send('metrics unavailable: the node\'s processes did not answer\n');
    }
  });
}

async function guardPublicScrape(request: FastifyRequest): Promise<void> {
  if (isOnAllowList(request.ip, request.server.gateway.config.metrics.allowFrom)) return;
  // As for /admin: a missing or malformed header is a 401, a wrong token a 403, both counted
  // against the address (and the address over its limit refused unread).
  await checkCredentialsPresent(request, false);
  await authenticateAdminRequest(request);
}
