import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import { parseTypedAmount } from '../../domain/console/typed-amount.js';
import { isPendingCode, isSuccessCode } from '../../results/catalogue.js';
import { GatewayError } from '../../results/gateway-error.js';
import { isUniqueViolation } from '../../storage/errors.js';
import type { Queryable } from '../../storage/port.js';
import { findTransactionByIdempotencyClaim, IDEMPOTENCY_CLAIM_INDEX, type StoredTransaction } from '../../storage/repositories/transactions.js';
import { recordChange } from '../audit/record-change.js';
import type { PaymentDeps } from '../deps.js';
import { referencePayment } from '../payments/reference-payment.js';
import { claimOfNonce, invalidField, type ConsoleActionResult, type ConsoleActor } from './console-action.js';
import { describeResult, findVisibleTransaction, paymentNotFound } from './load-payment-detail.js';
import { merchantOfEntity } from '../../storage/repositories/console/payment-family.js';

export type ConsoleReferenceType = 'CP' | 'RF' | 'RV';

/** The permission each referencing type needs: also the audit entry's action. */
export const REFERENCE_ACTIONS = { CP: 'payments.capture', RF: 'payments.refund', RV: 'payments.reverse' } as const;

export interface ConsoleReferenceInput extends ConsoleActor {
  readonly parentId: string;
  readonly paymentType: ConsoleReferenceType;
  /** As typed, in major units; empty for a reversal (it undoes the whole payment). */
  readonly amount: string;
  /** The hidden nonce of the form the request came from. */
  readonly nonce: string;
}

function amountOf(input: ConsoleReferenceInput): bigint | undefined {
  const text = input.amount.trim();
  if (text === '' && input.paymentType === 'RV') return undefined;
  const minor = parseTypedAmount(text);
  if (minor === undefined) throw invalidField('amount', text, 'must be an amount such as 12.50 (a point before at most two decimals)');
  if (minor <= 0n) throw invalidField('amount', text, 'must be more than 0');
  return minor;
}

function doneWith(t: StoredTransaction, repeated: boolean): ConsoleActionResult {
  return { kind: 'done', transactionId: t.id, status: t.status, resultCode: t.resultCode, description: describeResult(t.resultCode), repeated };
}

/** The audit entry of the request, written with the reservation and the pending child. */
function auditOf(deps: PaymentDeps, input: ConsoleReferenceInput, merchantId: string) {
  return (tx: Queryable, reserved: { parent: StoredTransaction; child: StoredTransaction }) =>
    recordChange(tx, deps.clock, {
      actor: input.actor,
      action: REFERENCE_ACTIONS[input.paymentType],
      target: { kind: 'transaction', id: reserved.parent.id },
      merchantId,
      before: { capturedMinor: reserved.parent.capturedMinor, refundedMinor: reserved.parent.refundedMinor, reversed: reserved.parent.reversedAt !== null },
      after: { transactionId: reserved.child.id, paymentType: reserved.child.paymentType, amountMinor: reserved.child.amountMinor, currency: reserved.child.currency },
    }).then(() => undefined);
}

/**
 * A capture, refund or reversal asked for in the console: the API's own operation (the parent's
 * row lock, its rules, the connector), under an idempotency claim derived from the form's nonce,
 * with the audit entry in the reservation's transaction. A second submission of the same form
 * answers the transaction the first made instead of making another.
 */
export async function referenceFromConsole(deps: PaymentDeps, input: ConsoleReferenceInput): Promise<ConsoleActionResult> {
  const parent = await findVisibleTransaction(deps.storage, input.visibility, input.parentId);
  if (!parent) throw paymentNotFound();
  const amountMinor = amountOf(input);
  const claimId = claimOfNonce(input.actor.userId, `${parent.id}:${input.paymentType}`, input.nonce);
  const earlier = await findTransactionByIdempotencyClaim(deps.storage, parent.entityId, claimId);
  if (earlier) return doneWith(earlier, true);
  const merchantId = (await merchantOfEntity(deps.storage, parent.entityId)) ?? parent.entityId;
  const request: PaymentRequest = { paymentType: input.paymentType, ...(amountMinor === undefined ? {} : { amount: amountMinor, currency: parent.currency }) };
  try {
    const view = await referencePayment(deps, { entityId: parent.entityId, parentId: parent.id, request, echo: {}, idempotencyClaimId: claimId, onReserved: auditOf(deps, input, merchantId) });
    const id = String(view.body['id']);
    const code = view.result.code;
    return { kind: 'done', transactionId: id, status: statusOfCode(view.result.code), resultCode: code, description: describeResult(code), repeated: false };
  } catch (error) {
    if (isUniqueViolation(error, IDEMPOTENCY_CLAIM_INDEX)) {
      const first = await findTransactionByIdempotencyClaim(deps.storage, parent.entityId, claimId);
      if (first) return doneWith(first, true);
    }
    if (error instanceof GatewayError && !error.parameterErrors) return { kind: 'refused', resultCode: error.code, description: describeResult(error.code) };
    throw error;
  }
}

function statusOfCode(code: string): string {
  return isSuccessCode(code) ? 'success' : isPendingCode(code) ? 'pending' : 'rejected';
}
