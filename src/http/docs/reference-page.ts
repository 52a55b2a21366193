import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * GET /docs: Swagger UI (npm swagger-ui-dist, kept by SmartBear) reading /openapi.json. The gateway
 * serves the renderer's files itself from node_modules: it has no internet access at run time, and
 * a page pulling scripts from a CDN would trust that CDN with whatever an operator types there.
 */

export const DOCS_ASSET_PREFIX = '/docs/assets';

export interface DocsAsset {
  readonly contentType: string;
  readonly bytes: Buffer;
}

/**
 * What the page may load, and nothing more: its own scripts and styles from this origin (no inline
 * script or style element anywhere: the start-up code is /docs/assets/init.js), the document by
 * fetch from this origin, the SVG icons swagger-ui.css embeds as data: URIs. Swagger UI sets
 * element styles through the DOM (React's style objects), which style-src does not govern, so
 * 'unsafe-inline' is not needed. No frames, forms or plugins: "Try it out" is switched off
 * (supportedSubmitMethods: []), so the page never sends a request with a token in it.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Started from a file of its own, not an inline script, so that script-src needs no nonce or hash. */
const INIT_SCRIPT = `"use strict";
window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: document.getElementById('api').getAttribute('data-openapi-url'),
    dom_id: '#api',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    supportedSubmitMethods: [],
    validatorUrl: null
  });
});
`;

function swaggerUiFolder(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

let loaded: ReadonlyMap<string, DocsAsset> | undefined;

/** Read once per process (tests build many apps): the files never change while the gateway runs. */
export function loadDocsAssets(): ReadonlyMap<string, DocsAsset> {
  loaded ??= readDocsAssets();
  return loaded;
}

function readDocsAssets(): ReadonlyMap<string, DocsAsset> {
  const folder = swaggerUiFolder();
  const file = (name: string, contentType: string): [string, DocsAsset] => [name, { contentType, bytes: readFileSync(join(folder, name)) }];
  return new Map([
    file('swagger-ui.css', 'text/css; charset=utf-8'),
    file('swagger-ui-bundle.js', 'application/javascript; charset=utf-8'),
    ['init.js', { contentType: 'application/javascript; charset=utf-8', bytes: Buffer.from(INIT_SCRIPT) }],
  ]);
}

export function renderDocsPage(openapiUrl: string, title: string): string {
  const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escaped(title)} API reference</title>
<link rel="stylesheet" href="${DOCS_ASSET_PREFIX}/swagger-ui.css">
<script src="${DOCS_ASSET_PREFIX}/swagger-ui-bundle.js" defer></script>
<script src="${DOCS_ASSET_PREFIX}/init.js" defer></script>
</head>
<body><div id="api" data-openapi-url="${escaped(openapiUrl)}"><noscript><p>The API reference needs JavaScript; the machine-readable document is at <a href="${escaped(openapiUrl)}">${escaped(openapiUrl)}</a>.</p></noscript></div></body></html>
`;
}
