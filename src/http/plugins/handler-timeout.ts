import { errorCodes, type FastifyInstance, type FastifyReply } from 'fastify';

/**
 * Every request answered within HANDLER_TIMEOUT_MS of its routing, or 504 with 900.100.300 (the
 * work itself goes on: a connector may still move money; error-handling.ts).
 *
 * Fastify's own `handlerTimeout` is not used. On Node 20 a request's 'close' event comes as soon
 * as its body has been read, and Fastify takes it for the client going away: it clears its timer,
 * so no request with a body (every payment) was bounded, and it aborts the request's signal,
 * building a DOMException with a stack for each of them (about 10 µs a payment). This timer ends
 * with the response's 'close' instead, which comes once the answer is written or the connection
 * is gone (test/integration/transport-sockets.test.ts).
 */
export function registerHandlerTimeout(app: FastifyInstance, timeoutMs: number): void {
  // A callback hook: no promise per request on the hot path.
  app.addHook('onRequest', (_request, reply, done) => {
    const timer = setTimeout(answerLate, timeoutMs, reply, timeoutMs);
    reply.raw.once('close', () => clearTimeout(timer));
    done();
  });
}

function answerLate(reply: FastifyReply, timeoutMs: number): void {
  if (reply.sent || reply.raw.destroyed) return;
  const error = new errorCodes.FST_ERR_HANDLER_TIMEOUT(timeoutMs, reply.request.routeOptions.url);
  // An answer already on its way (a stream) cannot become a 504: end the connection instead.
  if (reply.raw.headersSent) {
    reply.raw.destroy(error);
    return;
  }
  reply.send(error);
}
