import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { CHALLENGE_START_PATH, NOTIFICATION_PATH, RESULTS_PATH } from '../../connectors/emv3ds-server/server.js';
import { encode } from '../../connectors/emv3ds/codec.js';
import { receiveChallengeNotification } from '../../operations/three-d-secure/challenge-notification.js';
import { receiveChallengeResult } from '../../operations/three-d-secure/challenge-result.js';
import { challengeReturnPolicy, renderChallengeReturn } from '../challenge-return-page.js';
import { challengeStartPolicy, renderChallengeStart, renderFramedChallengeStart } from '../challenge-start-page.js';
import { challengeStartPage } from '../../operations/three-d-secure/challenge-start-page.js';
import { noteCompletedPayment, sendCompletion } from './redirects.js';

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
    // In the widget's overlay the frame's own page ends it (overlay-return.ts); a top window gets a
    // page instead of a 303, which the ACS's form-action would refuse (challenge-return-page.ts).
    if (result.kind === 'return' && request.headers['sec-fetch-dest'] !== 'iframe') {
      if (result.payment) noteCompletedPayment(request, result.payment);
      return reply.code(200).header('content-security-policy', challengeReturnPolicy()).header('referrer-policy', 'no-referrer').header('cache-control', 'no-store')
        .type('text/html; charset=utf-8').send(renderChallengeReturn(result.location));
    }
    return sendCompletion(request, reply, result);
  });
}
