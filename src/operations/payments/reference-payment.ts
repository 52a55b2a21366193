import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import { REFERENCING_OPERATIONS, type NormalizedOutcome } from '../../connectors/connector.js';
import { applyCapture, applyRefund, applyReversal, decideCapture, decideRefund, decideReversal } from '../../domain/lifecycle/index.js';
import { REVERSAL_AMOUNT_NOT_WHOLE, REVERSAL_CURRENCY_NOT_PARENTS } from '../../domain/lifecycle/reversal.js';
import { formatAmount } from '../../domain/money.js';
import { releaseOnParent } from './release-on-parent.js';
import { newShortId } from '../../domain/short-id.js';
import { newTransactionState, type ReferencingPaymentType, type TransactionState } from '../../domain/transaction.js';
import { GatewayError } from '../../results/gateway-error.js';
import { lockPendingTransaction, lockTransaction, type StoredTransaction } from '../../storage/repositories/transactions.js';
import type { Queryable } from '../../storage/port.js';
import type { PaymentDeps } from '../deps.js';
import { settledPayment, writeSettledPayments } from './payment-writes.js';
import { recordOutcome } from './record-outcome.js';
import { buildPaymentView, serialisedView, storedResponse, type PaymentView } from './payment-response.js';
import type { ChildReservation } from './reserve-children.js';

export interface ReferencePaymentInput {
  readonly entityId: string;
  readonly parentId: string;
  readonly request: PaymentRequest;
  readonly echo: Readonly<Record<string, unknown>>;
  /** The claim of the request's Idempotency-Key: stored on the child, where it is unique. */
  readonly idempotencyClaimId?: string | undefined;
  /**
   * Written in the transaction that reserves the amount on the parent and stores the pending
   * child (the console's audit entry of the request), so both commit or neither does.
   */
  readonly onReserved?: ((tx: Queryable, reserved: { readonly parent: StoredTransaction; readonly child: StoredTransaction }) => Promise<void>) | undefined;
}

const REFERENCING_TYPES: readonly string[] = ['CP', 'RF', 'RV'];
const PENDING = '000.200.000';

function referencingTypeOf(request: PaymentRequest): ReferencingPaymentType {
  const type = request.paymentType ?? '';
  if (REFERENCING_TYPES.includes(type)) return type as ReferencingPaymentType;
  throw new GatewayError('200.300.404', {
    parameterErrors: [{ name: 'paymentType', value: type, message: 'must be CP, RF or RV on /v1/payments/{id}' }],
  });
}

interface Reserved {
  readonly parent: StoredTransaction;
  readonly child: StoredTransaction;
}

/** The parent after the rule of this payment type accepted the request; the rule's code when not. */
function decide(type: ReferencingPaymentType, parent: TransactionState, request: PaymentRequest, now: Date, deps: PaymentDeps) {
  const policy = deps.connectors.policyFor(parent.connectorId);
  // The lock query already scoped the parent to what this entity may see (its channels too).
  // The spec does not say a capture or refund must repeat the currency, and OPPWA clients omit
  // it: absent, it is the parent's (docs/compatibility.md). The amount stays required (money).
  const amountRequest = { entityId: parent.entityId, amountMinor: request.amount ?? null, currency: request.currency ?? parent.currency, final: request.sequence === 'FINAL' };
  if (type === 'CP') {
    const d = decideCapture(parent, amountRequest, now, policy);
    return d.ok ? { parent: applyCapture(parent, d), amountMinor: d.amountMinor } : d;
  }
  if (type === 'RF') {
    const d = decideRefund(parent, amountRequest, policy);
    return d.ok ? { parent: applyRefund(parent, d), amountMinor: d.amountMinor } : d;
  }
  const d = decideReversal(parent, { entityId: parent.entityId, amountMinor: request.amount ?? null, currency: request.currency ?? null }, now, policy);
  return d.ok ? { parent: applyReversal(parent, d), amountMinor: d.reversedMinor } : d;
}

/** A refused reversal amount names the field and the amount that would be accepted (the whole one). */
function rejectionOf(code: string, parent: StoredTransaction, request: PaymentRequest): GatewayError {
  if (code === REVERSAL_AMOUNT_NOT_WHOLE) {
    const message = `a reversal undoes the whole payment: must be ${formatAmount(parent.amountMinor)} or left out`;
    return new GatewayError(code, { parameterErrors: [{ name: 'amount', value: formatAmount(request.amount ?? 0n), message }] });
  }
  if (code === REVERSAL_CURRENCY_NOT_PARENTS) {
    return new GatewayError(code, { parameterErrors: [{ name: 'currency', value: request.currency ?? '', message: `must be the payment's currency, ${parent.currency}, or left out` }] });
  }
  return new GatewayError(code);
}

/**
 * Phase 1: the reservation, decided under the parent's row lock and written with the pending
 * child in one transaction, which concurrent reservations share (reserveChildren, by group commit).
 */
function reservationOf(deps: PaymentDeps, input: ReferencePaymentInput, type: ReferencingPaymentType): ChildReservation<Reserved> {
  return {
    entityId: input.entityId,
    parentId: input.parentId,
    alsoWrite: input.onReserved,
    plan(parent) {
      if (!parent) throw new GatewayError('700.400.580');
      const connector = deps.connectors.registry.connectorById(parent.connectorId);
      // The connector of the parent is gone from this build, or may not serve the live system.
      if (!connector || (deps.system === 'live' && !connector.liveCapable)) throw new GatewayError('600.200.500');
      const now = deps.clock.now();
      const decision = decide(type, parent, input.request, now, deps);
      if ('ok' in decision) throw rejectionOf(decision.code, parent, input.request);
      const child = pendingChild(deps, input, type, parent, decision.amountMinor, now);
      return { parent: Object.assign({}, parent, decision.parent, { updatedAt: now }), child, result: { parent, child } };
    },
  };
}

function pendingChild(deps: PaymentDeps, input: ReferencePaymentInput, type: ReferencingPaymentType, parent: StoredTransaction, amountMinor: bigint, now: Date): StoredTransaction {
  const child: StoredTransaction = {
    parentId: parent.id,
    isFinal: input.request.sequence === 'FINAL',
    paymentBrand: parent.paymentBrand,
    paymentMethod: parent.paymentMethod,
    merchantTransactionId: input.request.merchantTransactionId ?? null,
    shortId: newShortId(),
    connectorReferences: {},
    schemeTransactionId: null,
    response: {},
    updatedAt: now,
    // Follow-ups go where their parent went: same connector, same route (its current credentials).
    routeId: parent.routeId,
    idempotencyClaimId: input.idempotencyClaimId ?? null,
    // The spread last: Node 20's V8 adds each property written after a spread slowly
    // (about 2 µs each; docs/performance.md).
    ...newTransactionState({ id: deps.ids.id(), entityId: parent.entityId, paymentType: type, status: 'pending', amountMinor, currency: parent.currency, createdAt: now, connectorId: parent.connectorId, resultCode: PENDING }),
  };
  return Object.assign(child, { response: storedResponse(viewOf(child, parent, input, { code: PENDING, resultDetails: {} })) });
}

function viewOf(child: StoredTransaction, parent: StoredTransaction, input: ReferencePaymentInput, outcome: Pick<NormalizedOutcome, 'code' | 'resultDetails'> & Partial<NormalizedOutcome>): PaymentView {
  const parentDescriptor = typeof parent.response['descriptor'] === 'string' ? (parent.response['descriptor'] as string) : child.shortId;
  return buildPaymentView({
    id: child.id,
    referencedId: parent.id,
    paymentType: child.paymentType,
    paymentBrand: child.paymentBrand,
    amountMinor: child.amountMinor,
    currency: child.currency,
    descriptor: input.request.descriptor ?? parentDescriptor,
    merchantTransactionId: child.merchantTransactionId ?? undefined,
    shortId: child.shortId,
    outcome,
    echo: input.echo,
  });
}

/**
 * Phase 3: store the outcome. A success or a pending outcome is written by group commit; a
 * declined child also gives its reservation back to the parent, under the parent's lock, in the
 * same transaction. Once stored, the answer is counted (the metrics).
 */
async function settle(deps: PaymentDeps, reserved: Reserved, input: ReferencePaymentInput, outcome: NormalizedOutcome, connectorAsked: boolean): Promise<PaymentView> {
  const view = serialisedView(viewOf(reserved.child, reserved.parent, input, outcome));
  const settled = settledPayment(deps, { id: reserved.child.id, entityId: reserved.child.entityId, outcome, view, schemeTransactionId: null, notificationUrl: input.request.notificationUrl });
  const { child } = reserved;
  const observation = { entityId: child.entityId, paymentType: child.paymentType, brand: child.paymentBrand ?? undefined, connector: connectorAsked ? child.connectorId : undefined, resultCode: outcome.code, amountMinor: child.amountMinor, currency: child.currency };
  if (outcome.kind !== 'declined') {
    await deps.writes.settle(settled);
    deps.observe.payment(observation);
    return view;
  }
  await deps.storage.transaction(async (tx) => {
    // The child first, then its parent: the order the resolution of pending children locks in.
    // A child resolved meanwhile keeps its outcome, and its reservation was settled with it.
    if (!(await lockPendingTransaction(tx, reserved.child.id))) return;
    await writeSettledPayments(tx, [settled]);
    const parent = await lockTransaction(tx, reserved.parent.entityId, reserved.parent.id);
    if (!parent) return;
    const { paymentType, amountMinor } = reserved.child as { paymentType: ReferencingPaymentType; amountMinor: bigint };
    await releaseOnParent(tx, parent, { id: reserved.child.id, paymentType, amountMinor }, settled.outcome.at);
  });
  deps.observe.payment(observation);
  return view;
}

/**
 * CP, RF or RV of an earlier payment. The parent's totals are checked and reserved under its row
 * lock together with the pending child, so concurrent requests can never capture or refund more
 * than there is; the connector is asked outside the lock.
 */
export async function referencePayment(deps: PaymentDeps, input: ReferencePaymentInput): Promise<PaymentView> {
  const type = referencingTypeOf(input.request);
  const reserved = await deps.writes.reserve(reservationOf(deps, input, type));
  const { parent, child } = reserved;
  const routed = await deps.connectors.forTransaction(parent);
  // Only a route missing from the table entirely (routes are disabled, never deleted) gets here:
  // nothing was sent, so the reservation goes back.
  if (!routed) return settle(deps, reserved, input, { kind: 'declined', code: '600.200.500', resultDetails: {} }, false);
  const { connector } = routed;
  const operation = REFERENCING_OPERATIONS[type];
  const outcome = await deps.connectors.call(connector, operation, () =>
    connector[operation]({
      transactionId: child.id,
      entityId: child.entityId,
      testMode: input.request.testMode ?? null,
      system: deps.system,
      amountMinor: child.amountMinor,
      currency: child.currency,
      brand: child.paymentBrand ?? '',
      credentials: routed.credentials,
      final: child.isFinal,
      parent: { transactionId: parent.id, paymentType: parent.paymentType, amountMinor: parent.amountMinor, currency: parent.currency, connectorReferences: parent.connectorReferences },
    }),
    { timeoutMs: deps.connectorTimeoutMs },
  );
  return recordOutcome(() => settle(deps, reserved, input, outcome, true));
}
