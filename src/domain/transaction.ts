/**
 * The operations of the public interface (spec "Payment types"), and the two the gateway writes
 * itself when a settlement file says so: CB (chargeback) and CR (chargeback reversal).
 */
export type PaymentType = 'PA' | 'DB' | 'CD' | 'CP' | 'RV' | 'RF' | 'CB' | 'CR';

/** Types that open a life cycle: they carry payment-method data and need no parent. */
export type InitialPaymentType = 'PA' | 'DB' | 'CD';

/** Types that reference a parent transaction through `POST /v1/payments/{id}`. */
export type ReferencingPaymentType = 'CP' | 'RV' | 'RF';

export const PAYMENT_TYPES: readonly PaymentType[] = ['PA', 'DB', 'CD', 'CP', 'RV', 'RF'];

/**
 * Where a transaction stands. `pending` covers both "asynchronous, answer later" and "connector
 * outcome unknown": neither may be treated as money moved or as money not moved.
 */
export type TransactionStatus = 'success' | 'pending' | 'rejected';

/**
 * The stored facts of one transaction that the life-cycle rules need. Plain data: the gateway
 * persists it, the rules in `lifecycle/` read it and return the totals to write back.
 *
 * Running totals (`capturedMinor`, `refundedMinor`, `captureCount`) count successful *and pending*
 * children, so a capture or refund whose outcome is still open keeps its amount reserved; when
 * such a child ends rejected the operation gives the amount back.
 */
export interface TransactionState {
  readonly id: string;
  readonly entityId: string;
  readonly paymentType: PaymentType;
  readonly status: TransactionStatus;
  readonly amountMinor: bigint;
  /** ISO 4217 code, upper case. */
  readonly currency: string;
  /** PA only: sum of its captures. */
  readonly capturedMinor: bigint;
  /** DB, CD and CP: sum of the refunds that reference it. */
  readonly refundedMinor: bigint;
  readonly reversedAt: Date | null;
  /** PA only: number of captures that reference it. */
  readonly captureCount: number;
  /** PA only: `numberOfCaptures` of the PA request (1..98); null = no limit but the amount. */
  readonly maxCaptures: number | null;
  /** PA only: no further capture, because a capture with sequence=FINAL was seen or the limit is reached. */
  readonly captureClosed: boolean;
  /** DB, CD and CP: no further refund, because a refund with sequence=FINAL was seen or all is refunded. */
  readonly refundClosed: boolean;
  readonly createdAt: Date;
  /** The connector that processed it; referencing operations must go to the same one. */
  readonly connectorId: string;
  readonly resultCode: string;
}

/** A fresh, untouched transaction, for initial payments and tests. */
export function newTransactionState(
  fields: Pick<TransactionState, 'id' | 'entityId' | 'paymentType' | 'status' | 'amountMinor' | 'currency' | 'createdAt' | 'connectorId' | 'resultCode'> &
    Partial<Pick<TransactionState, 'maxCaptures'>>,
): TransactionState {
  return {
    capturedMinor: 0n,
    refundedMinor: 0n,
    reversedAt: null,
    captureCount: 0,
    maxCaptures: null,
    captureClosed: false,
    refundClosed: false,
    ...fields,
  };
}
