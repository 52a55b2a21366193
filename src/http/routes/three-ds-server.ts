import { randomBytes } from 'node:crypto';
import { CHALLENGE_START_PATH, NOTIFICATION_PATH, RESULTS_PATH } from '../../connectors/emv3ds-server/server.js';
import { encode } from '../../connectors/emv3ds/codec.js';
import { receiveChallengeNotification } from '../../operations/three-d-secure/challenge-notification.js';
import { receiveChallengeResult } from '../../operations/three-d-secure/challenge-result.js';
import { challengeReturnPolicy, renderChallengeReturn } from '../challenge-return-page.js';
import { challengeStartPolicy, renderChallengeStart, renderFramedChallengeStart } from '../challenge-start-page.js';
import { challengeStartPage } from '../../operations/three-d-secure/challenge-start-page.js';
import { noteCompletedPayment, sendCompletion } from './redirects.js';
import { METHOD_NOTIFICATION_PATH, METHOD_PAGE_PATH, METHOD_SCRIPT_PATH } from '../../connectors/emv3ds-server/method.js';
import { methodPage } from '../../operations/three-d-secure/method-page.js';
import { receiveMethodNotification } from '../../operations/three-d-secure/method-notification.js';
import { continueAfterMethod } from '../../operations/three-d-secure/method-continue.js';
import type { CompletionResult } from '../../operations/redirects/complete-redirect.js';
import { METHOD_SCRIPT, methodNotificationPolicy, methodPagePolicy, renderMethodNotification, renderMethodPage } from '../three-ds-method-page.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const acsOrShopper = { config: { auth: 'public' as const } };
const REDIRECT_ID = /^[a-zA-Z0-9]{32}$/;
/** An RReq is a few kilobytes at most; a larger body is refused unread (413). */
const RREQ_MAX_BYTES = 64 * 1024;

/**
 * The gateway's own 3DS server's two addresses (connectors/emv3ds-server/, issue 37): the ACS
 * posts the RReq to RESULTS_PATH (threeDSServerURL) and the shopper's browser the final CRes to
 * NOTIFICATION_PATH (notificationURL). Served on every system: the test system's connector and a
 * live rehearsal both name them. The RReq's body is read as text, so that a body that is not
 * JSON is the protocol's Erro 101 and never Fastify's parse error, and it is never logged: only
 * its transaction id and what became of it.
 */
export function registerThreeDsServerRoutes(app: FastifyInstance): void {
  void app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', { parseAs: 'string', bodyLimit: RREQ_MAX_BYTES }, (_request, body, done) => done(null, body));
    scoped.post(RESULTS_PATH, acsOrShopper, async (request, reply) => {
      const answer = await receiveChallengeResult(request.server.gateway.payments, typeof request.body === 'string' ? request.body : '');
      request.log.info({ threeDSServerTransID: answer.threeDSServerTransID, outcome: answer.outcome }, '3-D Secure RReq');
      // EMV 3DS carries an Erro as a message, in HTTP 200, like the RRes.
      return reply.code(200).type('application/json; charset=utf-8').header('cache-control', 'no-store').send(encode(answer.message));
    });
  });
  app.get<{ Params: { id: string } }>(`${CHALLENGE_START_PATH}/:id`, acsOrShopper, async (request, reply) => {
    const { id } = request.params;
    const page = REDIRECT_ID.test(id) ? await challengeStartPage(request.server.gateway.payments, id) : { kind: 'ended' as const, reason: 'not-found' as const, locale: null };
    if (page.kind === 'ended') return sendCompletion(request, reply, page);
    const nonce = randomBytes(16).toString('base64');
    if (page.framingOrigin === undefined) reply.header('x-frame-options', 'DENY');
    // In the widget's overlay the ACS runs in this page's own frame (challenge-start-page.ts says why).
    const framed = page.framingOrigin !== undefined && request.headers['sec-fetch-dest'] === 'iframe';
    return reply.code(200).header('content-security-policy', challengeStartPolicy(nonce, new URL(page.form.url).origin, page.framingOrigin))
      .header('referrer-policy', 'no-referrer').header('cache-control', 'no-store')
      .type('text/html; charset=utf-8').send(framed ? renderFramedChallengeStart(nonce, page.form, page.framingOrigin!) : renderChallengeStart(nonce, page.form));
  });
  app.post(NOTIFICATION_PATH, acsOrShopper, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);
    const result = await receiveChallengeNotification(request.server.gateway.payments, { cres: text('cres'), threeDSSessionData: text('threeDSSessionData') });
    return sendProtocolCompletion(request, reply, result);
  });
  registerMethodRoutes(app);
}

/** What a refused method notification answers: the status says why, never a 500. */
const NOTIFICATION_STATUS = { notified: 200, malformed: 400, unknown: 404, replayed: 409, ended: 409 } as const;
const NOTIFICATION_REASON = {
  notified: '',
  malformed: 'threeDSMethodData is missing or is no base64url JSON with a threeDSServerTransID',
  unknown: 'no 3DS Method of this gateway has this threeDSServerTransID',
  replayed: 'this 3DS Method was notified already, or its payment went on without it',
  ended: 'this 3DS Method has ended',
} as const;

/**
 * The end of a form post (the ACS's final CRes, the method page's continue): in the widget's
 * overlay the frame's own page ends it (overlay-return.ts); a top window gets a page instead of a
 * 303, which the posting page's CSP form-action would refuse (challenge-return-page.ts).
 */
function sendProtocolCompletion(request: FastifyRequest, reply: FastifyReply, result: CompletionResult): FastifyReply {
  if (result.kind === 'return' && request.headers['sec-fetch-dest'] !== 'iframe') {
    if (result.payment) noteCompletedPayment(request, result.payment);
    return reply.code(200).header('content-security-policy', challengeReturnPolicy()).header('referrer-policy', 'no-referrer').header('cache-control', 'no-store')
      .type('text/html; charset=utf-8').send(renderChallengeReturn(result.location));
  }
  return sendCompletion(request, reply, result);
}

/**
 * The 3DS Method (docs/three-d-secure.md, "The 3DS Method"): the page a payment's redirect leads
 * to when the card's ACS has a method URL, its script, the ACS's notification and the page's
 * continue, which sends the AReq.
 */
function registerMethodRoutes(app: FastifyInstance): void {
  app.get(METHOD_SCRIPT_PATH, acsOrShopper, async (_request, reply) =>
    reply.code(200).type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff').send(METHOD_SCRIPT));
  app.get<{ Params: { id: string } }>(`${METHOD_PAGE_PATH}/:id`, acsOrShopper, async (request, reply) => {
    const { id } = request.params;
    const page = REDIRECT_ID.test(id) ? await methodPage(request.server.gateway.payments, id) : { kind: 'ended' as const, reason: 'not-found' as const, locale: null };
    if (page.kind === 'ended') return sendCompletion(request, reply, page);
    if (page.kind === 'challenge') return reply.code(303).header('location', page.location).header('cache-control', 'no-store').send();
    const nonce = randomBytes(16).toString('base64');
    if (page.framingOrigin === undefined) reply.header('x-frame-options', 'DENY');
    return reply.code(200).header('content-security-policy', methodPagePolicy(nonce, new URL(page.methodUrl).origin, page.framingOrigin))
      .header('referrer-policy', 'no-referrer').header('cache-control', 'no-store')
      .type('text/html; charset=utf-8').send(renderMethodPage(nonce, page));
  });
  app.post(METHOD_NOTIFICATION_PATH, acsOrShopper, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const answer = await receiveMethodNotification(request.server.gateway.payments, typeof body === 'object' ? body['threeDSMethodData'] : undefined);
    request.log.info({ threeDSServerTransID: answer.threeDSServerTransID, outcome: answer.outcome }, '3-D Secure method notification');
    return reply.code(NOTIFICATION_STATUS[answer.outcome]).header('content-security-policy', methodNotificationPolicy()).header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store').type('text/html; charset=utf-8').send(renderMethodNotification(answer.outcome === 'notified', NOTIFICATION_REASON[answer.outcome]));
  });
  app.post<{ Params: { id: string } }>(`${METHOD_PAGE_PATH}/:id/continue`, acsOrShopper, async (request, reply) => {
    const { id } = request.params;
    if (!REDIRECT_ID.test(id)) return sendCompletion(request, reply, { kind: 'ended', reason: 'not-found', locale: null });
    const result = await continueAfterMethod(request.server.gateway.payments, id);
    if (result.kind === 'challenge') return reply.code(303).header('location', result.location).header('cache-control', 'no-store').send();
    return sendProtocolCompletion(request, reply, result);
  });
}
