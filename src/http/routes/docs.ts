import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument, renderReferencePage } from '../../catalogue/index.js';

/** GET /openapi.json and GET /docs: the API reference, generated from the catalogue at start. */
export function registerDocsRoutes(app: FastifyInstance): void {
  const openApi = JSON.stringify(buildOpenApiDocument());
  const page = renderReferencePage('/openapi.json');
  app.get('/openapi.json', { config: { auth: 'public' } }, (_request, reply) => reply.type('application/json').send(openApi));
  app.get('/docs', { config: { auth: 'public' } }, (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
}
