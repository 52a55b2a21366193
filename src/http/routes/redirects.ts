import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROVIDER_PAGE_PATH } from '../../connectors/simulator/provider.js';
import { ACS_PAGE_PATH } from '../../connectors/simulator/three-d-secure/server.js';
import { pickLocale, renderChallengePage, renderEndedPage, renderProviderPage } from '../../connectors/simulator/pages/index.js';
import { CHOICES, completeRedirect, type CompletedPayment, type CompletionResult } from '../../operations/redirects/complete-redirect.js';
import { noteCheckout, noteResult, noteTransaction } from '../request-log-facts.js';
import { RETURN_PATH } from '../../operations/redirects/open-redirect.js';
import { redirectPage } from '../../operations/redirects/redirect-page.js';
import { overlayReturnPolicy, renderOverlayReturn } from '../widget/overlay-return.js';
import type { RedirectPurpose } from '../../storage/repositories/shopper-redirects.js';

const shopperPage = { config: { auth: 'public' as const } };
const REDIRECT_ID = /^[a-zA-Z0-9]{32}$/;

type Params = { Params: { id: string } };

/** The form fields (POST) and query parameters (GET) the shopper's browser brought, as plain strings. */
function returnedParameters(request: FastifyRequest): Record<string, string> {
  const returned: Record<string, string> = {};
  for (const source of [request.query, request.body]) {
    if (typeof source !== 'object' || source === null) continue;
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) if (typeof value === 'string' && value.length <= 4096) returned[name] = value;
  }
  return returned;
}

function localeOf(request: FastifyRequest, stored: string | null): string {
  return pickLocale(stored ?? undefined, request.headers['accept-language']);
}

/**
 * Pages carry no script and only one nonce'd style element; forms may post only to the gateway
 * itself (and then the 303 leads to the merchant's shopperResultUrl). No page may be framed
 * (clickjacking of the outcome buttons) but a widget payment's, by its result page's origin: the
 * widget's overlay on the merchant's page (docs/widget.md).
 */
function sendPage(reply: FastifyReply, status: number, html: (nonce: string) => string, formTarget = '', framingOrigin?: string): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  // X-Frame-Options cannot name an origin (ALLOW-FROM is gone): it denies where CSP denies, for old browsers.
  if (framingOrigin === undefined) reply.header('x-frame-options', 'DENY');
  // form-action covers the 303 after the post too (browsers check redirects of a form submission).
  return reply
    .code(status)
    .header('content-security-policy', `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self'${formTarget ? ` ${formTarget}` : ''}; frame-ancestors ${framingOrigin ?? "'none'"}; base-uri 'none'`)
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html(nonce));
}

/** The shopper's return names the payment it ended on the request's line: a refused challenge is found by its checkout. */
export function noteCompletedPayment(request: FastifyRequest, payment: CompletedPayment): void {
  noteTransaction(request, { id: payment.transactionId });
  if (payment.checkoutId !== undefined) noteCheckout(request, payment.checkoutId);
  if (payment.code !== undefined) noteResult(request, { code: payment.code });
}

export function sendCompletion(request: FastifyRequest, reply: FastifyReply, result: CompletionResult): FastifyReply {
  if (result.kind === 'return') {
    if (result.payment) noteCompletedPayment(request, result.payment);
    // Inside the widget's overlay the shopper leaves the frame through the widget (overlay-return.ts).
    if (request.headers['sec-fetch-dest'] === 'iframe') return sendOverlayReturn(reply, result.location);
    return reply.code(303).header('location', result.location).send();
  }
  const status = result.reason === 'not-found' ? 404 : 410;
  const shopUrl = result.reason === 'not-found' ? undefined : result.shopUrl;
  return sendPage(reply, status, (nonce) => renderEndedPage({ locale: localeOf(request, result.locale), reason: result.reason, nonce, shopUrl }));
}

function sendOverlayReturn(reply: FastifyReply, location: string): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .header('content-security-policy', overlayReturnPolicy(nonce, new URL(location).origin))
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(renderOverlayReturn(nonce, location));
}

async function showOrComplete(request: FastifyRequest<Params>, reply: FastifyReply, purpose: RedirectPurpose): Promise<FastifyReply> {
  const deps = request.server.gateway.payments;
  const { id } = request.params;
  if (!REDIRECT_ID.test(id)) return sendCompletion(request, reply, { kind: 'ended', reason: 'not-found', locale: null });
  const outcome = request.method === 'POST' ? (request.body as Record<string, unknown> | undefined)?.['outcome'] : undefined;
  if (typeof outcome === 'string' && CHOICES[purpose].includes(outcome)) {
    return sendCompletion(request, reply, await completeRedirect(deps, { redirectId: id, returned: { outcome }, purpose }));
  }
  const page = await redirectPage(deps, id, purpose);
  if (page.kind === 'ended') return sendCompletion(request, reply, page);
  const locale = localeOf(request, page.locale);
  const formAction = request.url.split('?')[0]!;
  // An outcome that is not one of the page's buttons: the page again, as a 400.
  const status = outcome === undefined ? 200 : 400;
  if (purpose === 'provider') {
    return sendPage(reply, status, (nonce) => renderProviderPage({ locale, brandName: page.brandName, merchantName: page.merchantName, amount: page.amount, currency: page.currency, formAction, hidden: [], nonce }), page.resultOrigin, page.framingOrigin);
  }
  return sendPage(reply, status, (nonce) => renderChallengePage({ locale, merchantName: page.merchantName, amount: page.amount, currency: page.currency, cardLast4: page.cardLast4, formAction, hidden: [], nonce }), page.resultOrigin, page.framingOrigin);
}

/**
 * The shopper's side of redirects. On the test system, the simulated provider and ACS pages
 * (GET or POST shows the page; POST with `outcome` completes, docs/simulator.md). On every
 * system, the return endpoint a real connector's provider sends the shopper back to.
 */
export function registerRedirectRoutes(app: FastifyInstance): void {
  if (app.gateway.config.system === 'test') {
    for (const [path, purpose] of [[PROVIDER_PAGE_PATH, 'provider'], [ACS_PAGE_PATH, 'challenge']] as const) {
      app.get<Params>(`${path}/:id`, shopperPage, (request, reply) => showOrComplete(request, reply, purpose));
      app.post<Params>(`${path}/:id`, shopperPage, (request, reply) => showOrComplete(request, reply, purpose));
    }
  }
  const back = async (request: FastifyRequest<Params>, reply: FastifyReply) => {
    const { id } = request.params;
    if (!REDIRECT_ID.test(id)) return sendCompletion(request, reply, { kind: 'ended', reason: 'not-found', locale: null });
    return sendCompletion(request, reply, await completeRedirect(request.server.gateway.payments, { redirectId: id, returned: returnedParameters(request) }));
  };
  app.get<Params>(`${RETURN_PATH}/:id/return`, shopperPage, back);
  app.post<Params>(`${RETURN_PATH}/:id/return`, shopperPage, back);
}
