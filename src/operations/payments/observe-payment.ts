import { PAYMENT_TYPES } from '../../domain/transaction.js';
import type { Observer } from '../../observability/observer.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { StoredTransaction } from '../../storage/repositories/transactions.js';

/**
 * How the payment path counts its answers (gateway_payments_total, docs/observability.md):
 * every answer a merchant receives counts once. The operations count the answers they return
 * (processInitialPayment and referencePayment, once stored); the entry points (the payment
 * routes, the widget's payment, a schedule's run) count what was thrown instead of an answer: a
 * refusal by validation, routing or a rule, or a failure. A payment answered pending is counted
 * again when its outcome is decided (observeLaterOutcome), so each payment ends in exactly one
 * outcome other than pending.
 */

/** Answered with a 500 (the error handler's 900.100.203 or 999.999.888): an error either way. */
const FAILED_CODE = '900.100.203';

/** What a refused request said of itself: labels only where they are one of a bounded set. */
export interface RefusedRequest {
  readonly entityId: string | undefined;
  readonly paymentType?: unknown;
  readonly paymentBrand?: unknown;
}

function paymentTypeLabel(value: unknown): string {
  return typeof value === 'string' && (PAYMENT_TYPES as readonly string[]).includes(value) ? value : 'none';
}

/** A payment request that ended in a throw instead of an answer of its own (validation, routing, a rule, a failure). */
export function observeRefusal(observe: Observer, request: RefusedRequest, error: unknown): void {
  observe.payment({
    entityId: request.entityId ?? '',
    paymentType: paymentTypeLabel(request.paymentType),
    // The observer keeps a brand only when the gateway knows it (brand-label.ts).
    brand: typeof request.paymentBrand === 'string' ? request.paymentBrand : undefined,
    resultCode: error instanceof GatewayError ? error.code : FAILED_CODE,
  });
}

/**
 * A payment answered pending whose outcome was decided later (3-D Secure challenge, provider
 * page, status check, expiry, operator), once that outcome is committed. `connectorAsked` false:
 * the gateway ended it alone (a challenge failed or expired), so no connector is named.
 */
export function observeLaterOutcome(
  observe: Observer | undefined,
  transaction: Pick<StoredTransaction, 'entityId' | 'paymentType' | 'paymentBrand' | 'connectorId' | 'amountMinor' | 'currency'>,
  resultCode: string,
  connectorAsked = true,
): void {
  observe?.payment({
    entityId: transaction.entityId,
    paymentType: transaction.paymentType,
    brand: transaction.paymentBrand ?? undefined,
    connector: connectorAsked ? transaction.connectorId : undefined,
    resultCode,
    amountMinor: transaction.amountMinor,
    currency: transaction.currency,
  });
}
