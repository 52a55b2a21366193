import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { framePolicy, renderFramePage } from '../widget/frame-page.js';
import { GatewayError } from '../../results/gateway-error.js';
import { loadWidgetAsset, type WidgetScript } from '../widget/script-asset.js';
import { loadWidgetTexts, widgetTextsBody, type WidgetTextsAsset } from '../widget/texts-asset.js';

const publicAsset = { config: { auth: 'public' as const } };
/** A year: the frame script's URL carries its version, and the widget script's carries a checkout id (docs/widget.md, caching). */
const LONG_CACHE = 'public, max-age=31536000, immutable';

function sendScript(request: FastifyRequest, reply: FastifyReply, asset: WidgetScript): FastifyReply {
  const etag = `"${asset.version}"`;
  reply
    .header('content-type', 'application/javascript; charset=utf-8')
    .header('cache-control', LONG_CACHE)
    .header('etag', etag)
    // Any merchant page loads it with crossorigin="anonymous" and integrity=, which needs CORS.
    .header('access-control-allow-origin', '*')
    .header('cross-origin-resource-policy', 'cross-origin');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.send(asset.bytes);
}

/** Without the current version in `v` (an old script, a hand-typed address) an hour: the texts may change with the next release. */
const SHORT_CACHE = 'public, max-age=3600';

/**
 * One language's texts, for the widget's script (which carries English only): a code outside the
 * 25 is a 400 naming `locale`.
 */
function sendTexts(request: FastifyRequest<{ Params: { locale: string }; Querystring: { v?: string } }>, reply: FastifyReply, asset: WidgetTextsAsset): FastifyReply {
  const { locale } = request.params;
  const body = widgetTextsBody(asset, locale);
  if (body === undefined) throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'locale', value: locale.slice(0, 32), message: `must be one of ${Object.keys(asset.texts).join(', ')}` }] });
  const etag = `"${asset.version}-${locale}"`;
  reply
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', request.query.v === asset.version ? LONG_CACHE : SHORT_CACHE)
    .header('etag', etag)
    // Fetched by the script from the merchant's page, without credentials.
    .header('access-control-allow-origin', '*')
    .header('cross-origin-resource-policy', 'cross-origin');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.send(body);
}

/**
 * The hosted payment widget's browser side (docs/widget.md): paymentWidgets.js (the same bytes
 * for every checkout), the texts of its languages, the secure field frame page and its script. Public: the shopper's browser
 * fetches them without credentials.
 */
export function registerWidgetRoutes(app: FastifyInstance): void {
  // Built (or read) at registration, so that the first shopper does not wait for it.
  const script = loadWidgetAsset('paymentWidgets');
  const frameScript = loadWidgetAsset('frame');
  const texts = loadWidgetTexts();
  // The merchant's page names its checkout in the script's query: the line carries it (not the rest of the query).
  app.get('/v1/paymentWidgets.js', { config: { ...publicAsset.config, checkoutIdIn: 'query' } }, (request, reply) => sendScript(request, reply, script));
  app.get('/v1/widget/frame.js', publicAsset, (request, reply) => sendScript(request, reply, frameScript));
  app.get<{ Params: { locale: string }; Querystring: { v?: string } }>('/v1/widget/texts/:locale', publicAsset, (request, reply) => sendTexts(request, reply, texts));
  app.get('/v1/widget/frame', publicAsset, (_request, reply) => {
    const nonce = randomBytes(16).toString('base64');
    return reply
      .header('content-security-policy', framePolicy(nonce))
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderFramePage(nonce, `frame.js?v=${frameScript.version}`));
  });
}
