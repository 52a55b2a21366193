import type { FastifyInstance } from 'fastify';
import { buildApiDocument } from '../openapi/document.js';
import { DOCS_ASSET_PREFIX, DOCS_CONTENT_SECURITY_POLICY, loadDocsAssets, renderDocsPage } from '../docs/reference-page.js';

const publicPage = { config: { auth: 'public' as const } };
/** A day: the renderer's files change only with the gateway's version, which restarts it. */
const ASSET_CACHE = 'public, max-age=86400';

/** GET /openapi.json, GET /docs and the renderer's files: the API reference, built once at start. */
export function registerDocsRoutes(app: FastifyInstance): void {
  const document = buildApiDocument();
  const openApi = JSON.stringify(document);
  const page = renderDocsPage('/openapi.json', document.info.title);
  const assets = loadDocsAssets();
  app.get('/openapi.json', publicPage, (_request, reply) => reply.type('application/json').send(openApi));
  app.get('/docs', publicPage, (_request, reply) =>
    reply.header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY).type('text/html; charset=utf-8').send(page),
  );
  for (const [name, asset] of assets) {
    app.get(`${DOCS_ASSET_PREFIX}/${name}`, publicPage, (_request, reply) => reply.header('cache-control', ASSET_CACHE).type(asset.contentType).send(asset.bytes));
  }
}
