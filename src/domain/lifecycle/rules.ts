import type { PaymentType, TransactionState } from '../transaction.js';

/** A rejected referencing request: the catalogue result code of the first broken rule. */
export interface Rejection {
  readonly ok: false;
  readonly code: string;
}

/** The money fields of a capture or refund request. */
export interface AmountRequest {
  /** The entity the request was authenticated for. */
  readonly entityId: string;
  /** null when the request had no amount. */
  readonly amountMinor: bigint | null;
  readonly currency: string | null;
  /** sequence=FINAL: the last of a series. */
  readonly final: boolean;
}

/**
 * One rule of a decision: a result code when broken, null when kept. Rules run in precedence
 * order and the first broken one wins, so a request breaking several rules always gets the
 * same answer.
 */
export type Rule<Context> = (context: Context) => string | null;

export function firstBrokenRule<Context>(rules: readonly Rule<Context>[], context: Context): Rejection | null {
  for (const rule of rules) {
    const code = rule(context);
    if (code !== null) return { ok: false, code };
  }
  return null;
}

// Rules shared by capture, refund and reversal. Each takes the parent and the request.

/** Another entity's transaction is "not found", never revealed (compatibility.md, Query). */
export function parentBelongsToEntity(parent: TransactionState, entityId: string): string | null {
  return parent.entityId === entityId ? null : '700.400.580';
}

export function amountIsPositive(amountMinor: bigint | null): string | null {
  return amountMinor !== null && amountMinor > 0n ? null : '100.550.300';
}

export function currencyIsPresent(currency: string | null): string | null {
  return currency !== null && currency !== '' ? null : '100.550.400';
}

export function parentTypeIsOneOf(parent: TransactionState, allowed: readonly PaymentType[], code: string): string | null {
  return allowed.includes(parent.paymentType) ? null : code;
}

/** A pending parent may still turn out rejected, so nothing may build on it yet. */
export function parentIsSettled(parent: TransactionState): string | null {
  if (parent.status === 'pending') return '700.400.570';
  if (parent.status === 'rejected') return '700.300.200';
  return null;
}

export function currencyMatchesParent(parent: TransactionState, currency: string | null): string | null {
  return currency === parent.currency ? null : '700.100.500';
}
