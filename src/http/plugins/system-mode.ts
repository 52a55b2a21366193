import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config/load-config.js';
import { GatewayError } from '../../results/gateway-error.js';

function carriesTestMode(request: FastifyRequest): boolean {
  const body = request.body as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  return (body !== undefined && body !== null && 'testMode' in body) || (query !== undefined && 'testMode' in query);
}

/**
 * The live system accepts nothing over plain HTTP. Behind a TLS-terminating proxy
 * (TRUST_PROXY_TLS) the proxy must say the request came in over HTTPS.
 */
export function registerTransportSecurity(app: FastifyInstance, config: Pick<Config, 'system' | 'tlsCertFile'>): void {
  if (config.system !== 'live' || config.tlsCertFile !== undefined) return;
  app.addHook('onRequest', async (request) => {
    if (request.headers['x-forwarded-proto'] !== 'https') throw new GatewayError('800.900.302', { httpStatus: 403 });
  });
}

/** testMode belongs to the test system; the live system declines any request that carries it. */
export function registerTestModeRule(app: FastifyInstance, config: Pick<Config, 'system'>): void {
  if (config.system !== 'live') return;
  app.addHook('preHandler', async (request) => {
    if ((request.routeOptions.config.auth ?? 'public') === 'entity' && carriesTestMode(request)) {
      throw new GatewayError('600.200.701');
    }
  });
}
