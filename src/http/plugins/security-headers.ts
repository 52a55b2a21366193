import type { FastifyInstance } from 'fastify';
import type { GatewaySystem } from '../../config/load-config.js';

/** A year, the usual HSTS lifetime; preload is left to the operator's domain policy. */
const HSTS_MAX_AGE_SECONDS = 31_536_000;

/**
 * Headers every answer carries. Answers hold account data (payments, registrations, card BIN
 * and last digits), so none may be stored by a browser or proxy: no-store on all of them is
 * simpler and safer than deciding per route. HSTS only on the live system, which is TLS only.
 */
export function securityHeaders(system: GatewaySystem): Readonly<Record<string, string>> {
  return Object.freeze({
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...(system === 'live' ? { 'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains` } : {}),
  });
}

/** Registered first, so that answers other hooks cut short (throttling, authentication) carry them too. */
export function registerSecurityHeaders(app: FastifyInstance, system: GatewaySystem): void {
  const headers = securityHeaders(system);
  // A callback hook: no promise per request on the hot path.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
