import type { FastifyInstance } from 'fastify';

/**
 * Reads the authorised entity's unknown-parameter setting before the handler validates the
 * request (registered after authentication, whose preHandler sets entityId).
 */
export function registerUnknownParameterSetting(app: FastifyInstance): void {
  app.decorateRequest('unknownParameters', undefined);
  app.decorateRequest('ignoredParameters', undefined);
  app.addHook('preHandler', async (request) => {
    if (request.entityId !== undefined) request.unknownParameters = await request.server.gateway.principals.unknownParametersOf(request.entityId);
  });
}
