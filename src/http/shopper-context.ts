import type { FastifyRequest } from 'fastify';

/**
 * Where a shopper sent away by this request comes back, and in which language the pages speak
 * to them: PUBLIC_URL when the operator set it (a gateway behind a proxy or CDN), else the
 * address the request reached (its protocol honours TRUSTED_PROXIES). Tests run on a random port.
 */
export function shopperContext(request: FastifyRequest): { gatewayBaseUrl: string; locale?: string } {
  const configured = request.server.gateway.config.publicUrl;
  const gatewayBaseUrl = configured ?? `${request.protocol}://${request.host}`;
  const language = request.headers['accept-language'];
  return { gatewayBaseUrl, ...(language ? { locale: language.split(',')[0]!.trim().slice(0, 35) } : {}) };
}
