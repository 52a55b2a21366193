import { outcomeGroupOf } from '../domain/outcome-group.js';
import { brandLabel } from './brand-label.js';
import type { GatewayMetrics } from './metrics.js';
import type { Observer } from './observer.js';

export interface MetricsObserverOptions {
  /** METRICS_ENTITIES: the few entities an operator breaks out by id; every other entity is counted only in the totals. */
  readonly entities?: ReadonlySet<string>;
}

/** A label for a value that may be absent: Prometheus treats an empty label as no label, which reads badly in queries. */
const orNone = (value: string | undefined): string => value || 'none';

/** The Observer port, recording into the gateway's Prometheus metrics. */
export function metricsObserver(metrics: GatewayMetrics, options: MetricsObserverOptions = {}): Observer {
  const entities = options.entities ?? new Set<string>();
  return {
    payment(event) {
      const outcome = outcomeGroupOf(event.resultCode);
      metrics.inc('payments', { payment_type: event.paymentType, brand: brandLabel(event.brand), connector: orNone(event.connector), outcome });
      // Amounts are stored in hundredths of the currency whatever its exponent (domain/money.ts).
      if (outcome === 'success' && event.amountMinor !== undefined && event.currency) {
        metrics.inc('paymentAmount', { currency: event.currency, payment_type: event.paymentType }, Number(event.amountMinor) / 100);
      }
      if (entities.has(event.entityId)) metrics.inc('entityPayments', { entity: event.entityId, outcome });
    },
    connectorCall(event) {
      metrics.observe('connectorDuration', { connector: event.connector, operation: event.operation }, event.durationSeconds);
      metrics.inc('connectorRequests', { connector: event.connector, operation: event.operation, outcome: event.outcome });
    },
    reversalAdvice: (event) => metrics.inc('reversalAdvices', { connector: event.connector, outcome: event.outcome }),
    iso8583LinkEvent: (event) => metrics.inc('iso8583LinkEvents', { host: event.host, event: event.event }),
    threeDSecure: (outcome) => metrics.inc('threeDSecure', { outcome }),
    redirect: (event) => metrics.inc('redirects', { event }),
    notificationDelivery(event) {
      metrics.inc('notificationDeliveries', { outcome: event.outcome });
      if (event.outcome === 'delivered' && event.lagSeconds !== undefined) metrics.observe('notificationLag', {}, Math.max(0, event.lagSeconds));
    },
    jobRun: (event) => metrics.inc('jobRuns', { job_type: event.jobType, outcome: event.outcome }),
    scheduleRun: (event) => metrics.inc('scheduleRuns', { timeliness: event.late ? 'late' : 'on_time', outcome: event.outcome }),
    scheduleRunMissed: (count) => metrics.inc('scheduleRunsMissed', {}, count),
    settlementRecords(event) {
      if (event.matched > 0) metrics.inc('settlementRecords', { connector: event.connector, outcome: 'matched' }, event.matched);
      if (event.unmatched > 0) metrics.inc('settlementRecords', { connector: event.connector, outcome: 'unmatched' }, event.unmatched);
      if (event.duplicate > 0) metrics.inc('settlementRecords', { connector: event.connector, outcome: 'duplicate' }, event.duplicate);
    },
    groupCommit: (event) => metrics.observe('groupCommitSize', { write: event.write }, event.size),
    throttled: () => metrics.inc('throttled', {}),
    authenticationFailed: (reason) => metrics.inc('authFailures', { reason }),
  };
}
