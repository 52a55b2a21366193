import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { visibilityOf } from '../../domain/access/actor.js';
import { decideRiskReview, listRiskReviews } from '../../operations/risk/review-payment.js';
import { isSuccessCode } from '../../results/catalogue.js';
import { consoleActor } from '../console-actor.js';
import { fieldOf, frameOf, sendRefusal } from '../pages/developers/developer-request.js';
import { RISK_REVIEWS, type RiskFormState } from '../pages/risk/risk-common.js';
import { RiskReviewsPage } from '../pages/risk/risk-reviews-page.js';
import { sendPage } from '../render.js';
import { formErrorsOf, safeValues } from './risk-lists.js';
import { GatewayError } from '../../results/gateway-error.js';
import { describeResult } from '../../operations/console/load-payment-detail.js';
import '../route-config.js';

type ReviewParams = { Params: { transactionId: string } };

async function showReviews(request: FastifyRequest, reply: FastifyReply, state?: RiskFormState): Promise<FastifyReply> {
  const visibility = visibilityOf(request.consoleUser!);
  const reviews = await listRiskReviews(request.server.gateway, visibility);
  const done = state ? undefined : fieldOf(request.query, 'done') || undefined;
  const page = <RiskReviewsPage frame={frameOf(request, RISK_REVIEWS)} reviews={reviews} now={request.server.gateway.clock.now()} showRules={visibility.kind === 'all'} state={state} done={done} />;
  return sendPage(reply, page, state ? 400 : 200);
}

/** A rejection the reversal's rules refused (captured, refunded, past the cut-off): said at the payment. */
function refusedByRules(error: unknown): Record<string, string[]> | undefined {
  if (!(error instanceof GatewayError) || error.parameterErrors || error.httpStatus === 404) return undefined;
  return { transaction: [`The payment cannot be reversed (${error.code}: ${describeResult(error.code)}): refund it from its page, then accept the review with the reason.`] };
}

/**
 * The manual review queue (issue 32): the payments the rules sent to review, their age, score and
 * (for operators) the rules that fired; accept or reject with a reason through the operation the
 * admin API calls (decideRiskReview: row-locked, audited; a rejection reverses the payment).
 */
export function registerRiskReviews(app: FastifyInstance): void {
  app.get(RISK_REVIEWS, { config: { console: 'risk.view' } }, async (request, reply) => showReviews(request, reply));
  app.post<ReviewParams>(`${RISK_REVIEWS}/:transactionId`, { config: { console: 'risk.review' } }, async (request, reply) => {
    const who = { actor: consoleActor(request), visibility: visibilityOf(request.consoleUser!) };
    try {
      const outcome = await decideRiskReview(request.server.gateway.payments, who, {
        transactionId: request.params.transactionId, decision: fieldOf(request.body, 'decision'), reason: fieldOf(request.body, 'reason'),
      });
      const done = outcome.reversal && !isSuccessCode(outcome.reversal.resultCode) ? 'reject-refused' : outcome.decision;
      return reply.redirect(`${RISK_REVIEWS}?done=${done}`, 303);
    } catch (error) {
      const errors = formErrorsOf(error) ?? refusedByRules(error);
      if (errors) return showReviews(request, reply, { form: `review-${request.params.transactionId}`, errors, values: safeValues({ reason: fieldOf(request.body, 'reason') }) });
      return sendRefusal(request, reply, error, { href: RISK_REVIEWS, label: 'Back to the review queue' });
    }
  });
}
