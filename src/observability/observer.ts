import type { OutcomeGroup } from '../domain/outcome-group.js';

/**
 * What the gateway reports as it works: the port operations, connectors, jobs and plugins call
 * (`deps.observe`), implemented by the metrics (metrics-observer.ts) or by nothing. Observations,
 * not logic: every method is synchronous, cheap and never throws, and nothing waits on an
 * exporter. Arguments are plain facts, never card data, tokens or other secrets.
 */
export interface Observer {
  /** A payment request answered (whatever path made it: API, widget, schedule, 3-D Secure completion). */
  payment(event: PaymentObservation): void;
  connectorCall(event: ConnectorCallObservation): void;
  reversalAdvice(event: { readonly connector: string; readonly outcome: 'sent' | 'acknowledged' | 'failed' }): void;
  iso8583LinkEvent(event: { readonly host: string; readonly event: Iso8583LinkEventName }): void;
  threeDSecure(outcome: ThreeDSecureOutcome): void;
  redirect(event: RedirectEvent): void;
  notificationDelivery(event: { readonly outcome: 'delivered' | 'http_error' | 'network_error' | 'refused_target'; readonly lagSeconds?: number | undefined }): void;
  jobRun(event: { readonly jobType: string; readonly outcome: 'done' | 'retry' | 'given_up' }): void;
  scheduleRun(event: { readonly late: boolean; readonly outcome: OutcomeGroup }): void;
  scheduleRunMissed(count: number): void;
  settlementRecords(event: { readonly connector: string; readonly matched: number; readonly unmatched: number; readonly duplicate: number }): void;
  groupCommit(event: { readonly write: 'pending' | 'settled' | 'reservation'; readonly size: number }): void;
  throttled(): void;
  authenticationFailed(reason: 'missing' | 'invalid' | 'locked_out' | 'admin'): void;
}

export interface PaymentObservation {
  readonly entityId: string;
  readonly paymentType: string;
  /** Absent for a request refused before its brand was known. */
  readonly brand?: string | undefined;
  /** Absent when no connector was asked (validation, risk, 3-D Secure refusals). */
  readonly connector?: string | undefined;
  readonly resultCode: string;
  readonly amountMinor?: bigint | undefined;
  readonly currency?: string | undefined;
}

export interface ConnectorCallObservation {
  readonly connector: string;
  readonly operation: ConnectorOperation;
  readonly outcome: ConnectorCallOutcome;
  readonly durationSeconds: number;
}

/** The connector port's methods (connector.ts): a bounded set, the label `operation`. */
export type ConnectorOperation = 'authorize' | 'debit' | 'credit' | 'capture' | 'refund' | 'reverse' | 'status' | 'cancel' | 'complete';

export type ConnectorCallOutcome = 'success' | 'declined' | 'pending' | 'unknown' | 'timeout' | 'error';

export type Iso8583LinkEventName = 'connected' | 'connect_failed' | 'sign_on_failed' | 'echo_failed' | 'condemned' | 'disconnected' | 'unmatched_answer';

export type RedirectEvent = 'opened' | 'completed' | 'expired' | 'abandoned';

export type ThreeDSecureOutcome = 'frictionless' | 'challenge' | 'failed' | 'not_enrolled' | 'attempted' | 'error';

const nothing = (): void => undefined;

/** Metrics off (METRICS_ENABLED=false), and the default of code built without an observer. */
export const noObserver: Observer = {
  payment: nothing,
  connectorCall: nothing,
  reversalAdvice: nothing,
  iso8583LinkEvent: nothing,
  threeDSecure: nothing,
  redirect: nothing,
  notificationDelivery: nothing,
  jobRun: nothing,
  scheduleRun: nothing,
  scheduleRunMissed: nothing,
  settlementRecords: nothing,
  groupCommit: nothing,
  throttled: nothing,
  authenticationFailed: nothing,
};
