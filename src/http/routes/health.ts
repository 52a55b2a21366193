import type { FastifyInstance } from 'fastify';

/** GET /health: for load balancers; 503 when the database does not answer. */
export function registerHealthRoutes(app: FastifyInstance): void {
  app.get('/health', { config: { auth: 'public' } }, async (_request, reply) => {
    try {
      await app.gateway.storage.query('SELECT 1');
      return reply.send({ status: 'ok' });
    } catch {
      return reply.code(503).send({ status: 'database unavailable' });
    }
  });
  // Browsers ask for it on every page the gateway serves (docs, simulated redirect pages): no icon, no error.
  app.get('/favicon.ico', { config: { auth: 'public' } }, (_request, reply) => reply.code(204).send());
}
