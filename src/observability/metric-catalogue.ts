/**
 * Every metric the gateway exports, as data: the registry (metrics.ts) is built from it and
 * docs/metrics.md is generated from it, so the two never disagree. Names follow the OpenTelemetry
 * semantic conventions where one exists (`http.server.request.duration`, exported the way
 * Prometheus spells it) and Prometheus naming otherwise: base units last (`_seconds`, `_bytes`),
 * counters end in `_total`. No label takes values without bound: ids never label a series (the
 * one exception, `gateway_entity_payments_total`, counts only the entities an operator lists in
 * METRICS_ENTITIES).
 *
 * `aggregate` says how GATEWAY_PROCESSES' processes add up into the one scrape of a node: counts,
 * sums and gauges of a process's own state are summed; a gauge read from the shared database is
 * the same in every process and is taken once (`first`).
 */
export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricDefinition {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string;
  readonly labels: readonly string[];
  /** Histograms only: upper bounds, in the metric's unit. */
  readonly buckets?: readonly number[];
  readonly aggregate?: 'sum' | 'first' | 'max' | 'min';
  /** Where it belongs in docs/metrics.md. */
  readonly area: MetricArea;
  /** The OpenTelemetry semantic-convention name it exports, where there is one. */
  readonly otelName?: string;
}

export type MetricArea = 'HTTP' | 'Payments' | 'Connectors' | '3-D Secure and redirects' | 'Notifications and jobs' | 'Schedules, pending payments and settlement' | 'Database and process';

/** The OpenTelemetry HTTP duration buckets (seconds), as its semantic conventions advise. */
const HTTP_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** A webhook is late after seconds, lost after hours: the lag spans both. */
const LAG_SECONDS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600, 24 * 3600];
const GROUP_SIZES = [1, 2, 4, 8, 16, 32, 64, 128, 256];

export const METRICS = {
  httpRequestDuration: {
    name: 'http_server_request_duration_seconds',
    otelName: 'http.server.request.duration',
    type: 'histogram',
    help: 'Duration of HTTP server requests, by method, route template and status code.',
    labels: ['http_request_method', 'http_route', 'http_response_status_code'],
    buckets: HTTP_SECONDS,
    area: 'HTTP',
  },
  payments: {
    name: 'gateway_payments_total',
    type: 'counter',
    help: 'Payment answers, by payment type, brand (a known brand, else other), connector (none when the gateway answered without one: refusals, a 3-D Secure challenge\'s pending answer) and outcome group (success, pending, declined, validation, risk, three_d_secure, error). Every answer a merchant receives counts once: a request\'s answer, and the final outcome of a payment answered pending, counted again when it is decided (3-D Secure challenge, provider page, status job, expiry, operator). So each payment ends in exactly one non-pending outcome, and the approval rate is success over everything but pending. A replayed Idempotency-Key answer is not counted again.',
    labels: ['payment_type', 'brand', 'connector', 'outcome'],
    area: 'Payments',
  },
  paymentAmount: {
    name: 'gateway_payment_amount_total',
    type: 'counter',
    help: 'Sum of the amounts of successful payments, in the currency\'s major unit, by currency and payment type.',
    labels: ['currency', 'payment_type'],
    area: 'Payments',
  },
  entityPayments: {
    name: 'gateway_entity_payments_total',
    type: 'counter',
    help: 'Payment requests of the entities listed in METRICS_ENTITIES only, by entity and outcome group.',
    labels: ['entity', 'outcome'],
    area: 'Payments',
  },
  connectorDuration: {
    name: 'gateway_connector_request_duration_seconds',
    type: 'histogram',
    help: 'Time a connector took to answer (up to CONNECTOR_TIMEOUT_MS), by connector and operation (authorize, debit, credit, capture, refund, reverse, status, cancel, complete).',
    labels: ['connector', 'operation'],
    buckets: HTTP_SECONDS,
    area: 'Connectors',
  },
  connectorRequests: {
    name: 'gateway_connector_requests_total',
    type: 'counter',
    help: 'Connector calls by connector, operation and outcome: success, declined, pending; timeout (no answer within CONNECTOR_TIMEOUT_MS, or the connector says its acquirer did not answer: 900.100.300); unknown (any other answer that cannot tell whether money moved); error (the connector threw, answered something unreadable, or could not process the request at all: nothing sent, a technical refusal).',
    labels: ['connector', 'operation', 'outcome'],
    area: 'Connectors',
  },
  reversalAdvices: {
    name: 'gateway_reversal_advices_total',
    type: 'counter',
    help: 'Reversal advices (ISO 8583 0420, 0421 when repeated) for requests left without an answer, by connector and outcome: sent (each attempt), acknowledged (0430 with 00), failed (no or another answer: tried again later).',
    labels: ['connector', 'outcome'],
    area: 'Connectors',
  },
  iso8583Connections: {
    name: 'gateway_iso8583_connections',
    type: 'gauge',
    help: 'ISO 8583 connections of this node signed on and usable, by acquirer host.',
    labels: ['host'],
    area: 'Connectors',
  },
  iso8583InFlight: {
    name: 'gateway_iso8583_messages_in_flight',
    type: 'gauge',
    help: 'ISO 8583 requests sent and not yet answered, by acquirer host.',
    labels: ['host'],
    area: 'Connectors',
  },
  iso8583LinkEvents: {
    name: 'gateway_iso8583_link_events_total',
    type: 'counter',
    help: 'ISO 8583 connection events by acquirer host and event (connected, connect_failed, sign_on_failed, echo_failed, condemned, disconnected, unmatched_answer).',
    labels: ['host', 'event'],
    area: 'Connectors',
  },
  threeDSecure: {
    name: 'gateway_three_d_secure_authentications_total',
    type: 'counter',
    help: '3-D Secure authentications of the gateway\'s own server, each counted once when its outcome is known: frictionless (authenticated without the shopper), attempted (status A), not_enrolled (card not enrolled or not participating), error (the directory or ACS failed: status U), challenge (the shopper passed a challenge), failed (the shopper failed, cancelled or abandoned a challenge, the issuer rejected it, or it expired).',
    labels: ['outcome'],
    area: '3-D Secure and redirects',
  },
  redirects: {
    name: 'gateway_redirects_total',
    type: 'counter',
    help: 'Shopper redirects (3-D Secure challenges and provider pages) by event: opened, completed (the shopper came back), expired (REDIRECT_EXPIRY_MINUTES passed), abandoned (the shopper started another widget attempt instead).',
    labels: ['event'],
    area: '3-D Secure and redirects',
  },
  notificationDeliveries: {
    name: 'gateway_notification_deliveries_total',
    type: 'counter',
    help: 'Webhook delivery attempts by outcome (delivered, http_error, network_error, refused_target).',
    labels: ['outcome'],
    area: 'Notifications and jobs',
  },
  notificationLag: {
    name: 'gateway_notification_delivery_lag_seconds',
    type: 'histogram',
    help: 'Time from the event a notification reports to the receiver\'s 2xx answer.',
    labels: [],
    buckets: LAG_SECONDS,
    area: 'Notifications and jobs',
  },
  jobRuns: {
    name: 'gateway_job_runs_total',
    type: 'counter',
    help: 'Background job runs by job type and outcome (done, retry, given_up).',
    labels: ['job_type', 'outcome'],
    area: 'Notifications and jobs',
  },
  jobsDue: {
    name: 'gateway_jobs_due',
    type: 'gauge',
    help: 'Background jobs due now and not yet run, by job type (read from the database at scrape time).',
    labels: ['job_type'],
    aggregate: 'first',
    area: 'Notifications and jobs',
  },
  oldestDueJobAge: {
    name: 'gateway_jobs_oldest_due_age_seconds',
    type: 'gauge',
    help: 'How long the oldest due job has been waiting, by job type (0 when none is due).',
    labels: ['job_type'],
    aggregate: 'first',
    area: 'Notifications and jobs',
  },
  pendingPayments: {
    name: 'gateway_pending_payments',
    type: 'gauge',
    help: 'Payments waiting on a connector or a shopper (status pending), read from the database at scrape time.',
    labels: [],
    aggregate: 'first',
    area: 'Schedules, pending payments and settlement',
  },
  oldestPendingAge: {
    name: 'gateway_pending_payment_oldest_age_seconds',
    type: 'gauge',
    help: 'Age of the oldest pending payment (0 when none).',
    labels: [],
    aggregate: 'first',
    area: 'Schedules, pending payments and settlement',
  },
  scheduleRuns: {
    name: 'gateway_schedule_runs_total',
    type: 'counter',
    help: 'Scheduled payments made, by timeliness (on_time, late: more than SCHEDULE_LATE_SECONDS after the fire time) and outcome group.',
    labels: ['timeliness', 'outcome'],
    area: 'Schedules, pending payments and settlement',
  },
  scheduleRunsMissed: {
    name: 'gateway_schedule_runs_missed_total',
    type: 'counter',
    help: 'Fire times of schedules that passed without a run (skipped as too late to pay).',
    labels: [],
    area: 'Schedules, pending payments and settlement',
  },
  settlementRecords: {
    name: 'gateway_settlement_records_total',
    type: 'counter',
    help: 'Settlement records ingested, by connector and outcome (matched, unmatched, duplicate).',
    labels: ['connector', 'outcome'],
    area: 'Schedules, pending payments and settlement',
  },
  dbPoolConnections: {
    name: 'gateway_db_pool_connections',
    type: 'gauge',
    help: 'Database pool connections by pool (main, group_writes) and state (in_use, idle).',
    labels: ['pool', 'state'],
    area: 'Database and process',
  },
  dbPoolWaiting: {
    name: 'gateway_db_pool_waiting_requests',
    type: 'gauge',
    help: 'Queries waiting for a free connection, by pool.',
    labels: ['pool'],
    area: 'Database and process',
  },
  dbPoolMax: {
    name: 'gateway_db_pool_max_connections',
    type: 'gauge',
    help: 'The most connections each pool may open (DB_POOL_SIZE and the group writers).',
    labels: ['pool'],
    area: 'Database and process',
  },
  groupCommitSize: {
    name: 'gateway_group_commit_batch_size',
    type: 'histogram',
    help: 'Payments written per group-commit statement, by write (pending, settled, reservation).',
    labels: ['write'],
    buckets: GROUP_SIZES,
    area: 'Database and process',
  },
  throttled: {
    name: 'gateway_throttled_requests_total',
    type: 'counter',
    help: 'Requests refused by throttling (429, 800.120.x).',
    labels: [],
    area: 'Database and process',
  },
  authFailures: {
    name: 'gateway_authentication_failures_total',
    type: 'counter',
    help: 'Failed authentications by reason (missing, invalid, locked_out, admin).',
    labels: ['reason'],
    area: 'Database and process',
  },
  processRestarts: {
    name: 'gateway_process_restarts_total',
    type: 'counter',
    help: 'Gateway processes of GATEWAY_PROCESSES that died and were started again (counted by the primary).',
    labels: [],
    area: 'Database and process',
  },
  buildInfo: {
    name: 'gateway_build_info',
    type: 'gauge',
    help: 'Always 1, labelled with the running build.',
    labels: ['version', 'build_number', 'system'],
    aggregate: 'first',
    area: 'Database and process',
  },
} as const satisfies Record<string, MetricDefinition>;

export type MetricKey = keyof typeof METRICS;
