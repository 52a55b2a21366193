import type { PaymentType } from '../transaction.js';

/**
 * What a connector allows for the referencing operations. The spec leaves these to the
 * connector ("possible only until a connector-specific cut-off time; some connectors do not
 * support it"), so each connector declares its own and the registry may override it.
 */
export interface LifecyclePolicy {
  readonly supportsRefund: boolean;
  readonly supportsReversal: boolean;
  /**
   * A reversal (void) is accepted while fewer than this many minutes have passed since the
   * referenced transaction was created; null = no cut-off. Minutes since creation rather than a
   * time of day, because every acquirer clears on a different daily schedule and a rolling
   * window gives the same answer in every time zone.
   */
  readonly reversalCutoffMinutes: number | null;
  /**
   * A capture is accepted while fewer than this many minutes have passed since the PA was
   * created (authorisation holds expire at the issuer); null = no limit.
   */
  readonly captureCutoffMinutes: number | null;
  /**
   * The payment types the connector's acquirer accepts (an acquirer without credits, one that
   * only sells, never authorises …); absent: all of them.
   */
  readonly paymentTypes?: readonly PaymentType[];
}

/** Does the policy accept this payment type? */
export function supportsPaymentType(policy: LifecyclePolicy, paymentType: PaymentType): boolean {
  return policy.paymentTypes === undefined || policy.paymentTypes.includes(paymentType);
}

const MINUTES_PER_DAY = 24 * 60;

export const DEFAULT_LIFECYCLE_POLICY: LifecyclePolicy = Object.freeze({
  supportsRefund: true,
  supportsReversal: true,
  // a void is possible until the acquirer's daily clearing; one day covers every schedule
  reversalCutoffMinutes: MINUTES_PER_DAY,
  // the most common authorisation validity of the card schemes
  captureCutoffMinutes: 7 * MINUTES_PER_DAY,
});

const MS_PER_MINUTE = 60_000;

/** True when `now` is at or past `cutoffMinutes` after `since`; a null cut-off never passes. */
export function isPastCutoff(since: Date, now: Date, cutoffMinutes: number | null): boolean {
  if (cutoffMinutes === null) return false;
  return now.getTime() - since.getTime() >= cutoffMinutes * MS_PER_MINUTE;
}
