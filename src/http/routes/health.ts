import type { FastifyInstance } from 'fastify';

/** What an orchestrator's probes need: public, and over plain HTTP on the live system too. */
const PROBE = { auth: 'public', plainHttpAllowed: true } as const;

/**
 * GET /health: for load balancers; 503 when the database does not answer. GET /health/live: the
 * process answers (no I/O). GET /health/ready: 200 only when every check passes, 503 naming each
 * check's state otherwise, and 503 "draining" from the start of a graceful shutdown.
 */
export function registerHealthRoutes(app: FastifyInstance): void {
  app.get('/health', { config: { auth: 'public' } }, async (_request, reply) => {
    try {
      await app.gateway.storage.query('SELECT 1');
      return reply.send({ status: 'ok' });
    } catch {
      return reply.code(503).send({ status: 'database unavailable' });
    }
  });
  app.get('/health/live', { config: PROBE }, async (_request, reply) => reply.send({ status: 'ok' }));
  app.get('/health/ready', { config: PROBE }, async (_request, reply) => {
    const report = await app.gateway.readiness.report();
    return reply.code(report.ready ? 200 : 503).header('cache-control', 'no-store').send(report.body);
  });
  registerDrainingConnectionClose(app);
  // Browsers ask for it on every page the gateway serves (docs, simulated redirect pages): no icon, no error.
  app.get('/favicon.ico', { config: { auth: 'public' } }, (_request, reply) => reply.code(204).send());
}

/**
 * While draining, every answer closes its connection: a keep-alive client (a load balancer's
 * pool) opens its next one elsewhere instead of holding on to a process about to stop listening.
 */
function registerDrainingConnectionClose(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply) => {
    if (app.gateway.readiness.drain.draining) reply.header('connection', 'close');
  });
}
