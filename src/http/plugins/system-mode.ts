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
 * (TRUST_PROXY_TLS) the proxy must say the request came in over HTTPS: request.protocol believes
 * X-Forwarded-Proto only when the connection comes from a TRUSTED_PROXIES address (app.ts), so
 * anyone else claiming it is refused. A listener bound to a loopback address (the administration
 * listener by default) needs no TLS: what it receives never crossed a network. The probes of
 * /health/live and /health/ready carry nothing secret and come straight from the orchestrator.
 */
export function registerTransportSecurity(
  app: FastifyInstance,
  config: Pick<Config, 'system' | 'tlsCertFile'>,
  listener: { readonly loopbackOnly: boolean } = { loopbackOnly: false },
): void {
  if (config.system !== 'live' || config.tlsCertFile !== undefined || listener.loopbackOnly) return;
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.plainHttpAllowed === true) return;
    if (request.protocol !== 'https') throw new GatewayError('800.900.302', { httpStatus: 403 });
  });
}

/** Routes whose requests are payment requests: the merchant's API, and the widget's payment and registration posts. */
function carriesPaymentParameters(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  return (config.auth ?? 'public') === 'entity' || config.refusesTestModeOnLive === true;
}

/**
 * testMode belongs to the test system; the live system declines any payment request that carries
 * it (600.200.701), whether the merchant's server or the widget in the shopper's browser sent it.
 */
export function registerTestModeRule(app: FastifyInstance, config: Pick<Config, 'system'>): void {
  if (config.system !== 'live') return;
  app.addHook('preHandler', async (request) => {
    if (carriesPaymentParameters(request) && carriesTestMode(request)) {
      throw new GatewayError('600.200.701');
    }
  });
}
