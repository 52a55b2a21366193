import type { Actor, Visibility } from '../../domain/access/actor.js';
import { actorLabel } from '../../domain/access/actor.js';
import { containsCardNumber } from '../../domain/card-numbers-in-text.js';
import { GatewayError } from '../../results/gateway-error.js';
import { isUniqueViolation } from '../../storage/errors.js';
import type { Queryable } from '../../storage/port.js';
import { merchantOfEntity } from '../../storage/repositories/console/payment-family.js';
import { findReviewDecision, insertReviewDecision, listRecentReviewDecisions, listReviewQueue } from '../../storage/repositories/risk-reviews.js';
import { lockTransaction, type StoredTransaction } from '../../storage/repositories/transactions.js';
import { recordChange } from '../audit/record-change.js';
import { describeResult, findVisibleTransaction, paymentNotFound } from '../console/load-payment-detail.js';
import type { OperationDeps, PaymentDeps } from '../deps.js';
import { referencePayment } from '../payments/reference-payment.js';

/** Who decides a review: the audit log's actor and what they may see (an admin token sees all). */
export interface Reviewer {
  readonly actor: Actor;
  readonly visibility: Visibility;
}

export const REVIEW_DECISIONS = ['accept', 'reject'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

const REASON = /^[^\u0000-\u001f\u007f]{3,500}$/;
const REVIEW_CLOSED = '700.400.300';

function invalid(name: string, message: string, code = '200.300.404'): GatewayError {
  return new GatewayError(code, { parameterErrors: [{ name, value: '', message }] });
}

/** The payments waiting for a manual review and the latest decisions, as the person may see them. */
export async function listRiskReviews(deps: Pick<OperationDeps, 'storage'>, visibility: Visibility) {
  const merchantId = visibility.kind === 'merchant' ? visibility.merchantId : null;
  const [waiting, decided] = await Promise.all([listReviewQueue(deps.storage, merchantId), listRecentReviewDecisions(deps.storage, merchantId)]);
  return { waiting, decided };
}

function parseInput(input: { decision: string; reason: string }): { decision: ReviewDecision; reason: string } {
  const decision = (REVIEW_DECISIONS as readonly string[]).includes(input.decision) ? (input.decision as ReviewDecision) : undefined;
  if (!decision) throw invalid('decision', 'must be accept or reject');
  const reason = input.reason.trim();
  if (!REASON.test(reason)) throw invalid('reason', 'must be 3 to 500 characters without control characters');
  // The reason is kept and shown in the audit log: never a card number in it.
  if (containsCardNumber(reason)) throw invalid('reason', 'must not contain a card number');
  return { decision, reason };
}

/** Refuses a payment that is not (or no longer) waiting for a review; read under its row lock. */
async function requireWaiting(db: Queryable, payment: StoredTransaction): Promise<void> {
  const { rows } = await db.query<{ decision: string | null }>("SELECT risk_evaluation ->> 'decision' AS decision FROM transactions WHERE id = $1", [payment.id]);
  if (rows[0]?.decision !== 'review' || payment.status !== 'success') throw invalid('transaction', 'the risk rules did not send this payment to review', REVIEW_CLOSED);
  const earlier = await findReviewDecision(db, payment.id);
  if (earlier) throw alreadyDecided(earlier.decision, earlier.decidedBy);
}

function alreadyDecided(decision: string, by: string): GatewayError {
  return invalid('transaction', `the review was decided already (${decision} by ${by})`, REVIEW_CLOSED);
}

/** The decision, its audit entry: in the transaction that holds the payment's row lock. */
async function recordDecision(deps: OperationDeps, tx: Queryable, who: Reviewer, payment: StoredTransaction, decision: { decision: ReviewDecision; reason: string }, reversalId: string | null) {
  await requireWaiting(tx, payment);
  const decidedAt = deps.clock.now();
  await insertReviewDecision(tx, {
    transactionId: payment.id, entityId: payment.entityId, decision: decision.decision === 'accept' ? 'accepted' : 'rejected',
    reason: decision.reason, decidedBy: actorLabel(who.actor), decidedAt, reversalId,
  });
  await recordChange(tx, deps.clock, {
    actor: who.actor, action: `risk.review.${decision.decision}`, target: { kind: 'transaction', id: payment.id },
    merchantId: (await merchantOfEntity(tx, payment.entityId)) ?? payment.entityId,
    before: { decision: 'review' }, after: { decision: decision.decision, reason: decision.reason, ...(reversalId ? { reversalId } : {}) },
  });
}

export interface ReviewOutcome {
  readonly transactionId: string;
  readonly decision: ReviewDecision;
  /** A rejection's reversal: its id and result (the connector may refuse it). */
  readonly reversal?: { readonly id: string; readonly resultCode: string; readonly description: string } | undefined;
}

/**
 * A payment the rules sent to review, decided by a person. Accept: the payment stands (a
 * preauthorization stays capturable); the decision is recorded under the payment's row lock.
 * Reject: the payment is reversed in full (RV, the API's own operation, the parent's row lock and
 * the connector), the decision and its audit entry written with the reversal's reservation, so a
 * refused reversal (captured, refunded, past the cut-off) leaves the review open.
 */
export async function decideRiskReview(deps: PaymentDeps, who: Reviewer, input: { transactionId: string; decision: string; reason: string }): Promise<ReviewOutcome> {
  const parsed = parseInput(input);
  const payment = await findVisibleTransaction(deps.storage, who.visibility, input.transactionId);
  if (!payment) throw paymentNotFound();
  await requireWaiting(deps.storage, payment);
  try {
    if (parsed.decision === 'accept') {
      await deps.storage.transaction(async (tx) => {
        const locked = await lockTransaction(tx, payment.entityId, payment.id);
        await recordDecision(deps, tx, who, locked ?? payment, parsed, null);
      });
      return { transactionId: payment.id, decision: 'accept' };
    }
    const view = await referencePayment(deps, {
      entityId: payment.entityId, parentId: payment.id, request: { paymentType: 'RV' }, echo: {},
      onReserved: (tx, reserved) => recordDecision(deps, tx, who, reserved.parent, parsed, reserved.child.id),
    });
    const code = view.result.code;
    return { transactionId: payment.id, decision: 'reject', reversal: { id: String(view.body['id']), resultCode: code, description: describeResult(code) } };
  } catch (error) {
    if (isUniqueViolation(error)) {
      const earlier = await findReviewDecision(deps.storage, payment.id);
      if (earlier) throw alreadyDecided(earlier.decision, earlier.decidedBy);
    }
    throw error;
  }
}
