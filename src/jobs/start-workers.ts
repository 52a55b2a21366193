import type { ResolutionSettings } from '../config/resolution-settings.js';
import type { ConnectorRouter } from '../connectors/router.js';
import { randomIds, type Clock } from '../domain/ids.js';
import { resolvePendingHandler, sweepPendingHandler } from './resolve-pending.js';
import { RESOLVE_PENDING_JOB, SWEEP_PENDING_JOB } from '../storage/repositories/pending-checks.js';
import { SCHEDULE_RUN_JOB } from '../operations/schedules/schedule-firing.js';
import type { NotificationSender } from '../operations/webhooks/ports.js';
import type { Storage } from '../storage/port.js';
import type { Observer } from '../observability/observer.js';
import { deliverWebhookHandler } from './deliver-webhook.js';
import { expireRedirectsHandler } from './expire-redirects.js';
import { pruneRiskAttemptsHandler } from './prune-risk-attempts.js';
import { pruneRequestLogHandler } from './prune-request-log.js';
import { rollUpOverviewHandler } from './roll-up-overview.js';
import { switchWebhookSecretHandler } from './switch-webhook-secret.js';
import { httpNotificationSender } from './http-sender.js';
import type { JobHandler, JobLogger } from './job-types.js';
import { JobWorker } from './job-worker.js';
import type { WorkerSettings } from '../config/worker-settings.js';
import type { ScheduleDeps } from '../operations/schedules/schedule-deps.js';
import { runScheduleHandler } from './run-schedule.js';
import { queueCheckoutCallbacksHandler, sendCheckoutCallbackHandler } from './checkout-callbacks.js';
import { reversalAdviceHandler } from './send-reversal-advice.js';
import { settleDayHandler, type SettleDayDeps } from './settle-day.js';
import { startHeartbeat } from './heartbeat.js';

export interface StartWorkersOptions {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: JobLogger;
  readonly settings: WorkerSettings;
  /** Tests and benchmarks may pass their own; otherwise HTTP with keep-alive. */
  readonly sender?: NotificationSender | undefined;
  /** With the connectors, the workers also resolve pending transactions (status queries). */
  readonly resolution?: { readonly connectors: ConnectorRouter; readonly settings: ResolutionSettings } | undefined;
  /** With the payment operations, the workers also make the due runs of schedules. */
  readonly schedules?: ScheduleDeps | undefined;
  /** How often the 29-minute checkout callbacks are looked for (CHECKOUT_CALLBACK_SWEEP_INTERVAL_MS); 15 s when absent. */
  readonly checkoutCallbackSweepIntervalMs?: number | undefined;
  /** With it, the workers also make the daily settlement run (docs/settlement.md). */
  readonly settlement?: Omit<SettleDayDeps, 'logger'> | undefined;
  /** Where job runs and webhook deliveries are reported (the process's metrics); nothing when absent. */
  readonly observer?: Observer | undefined;
  /** Days the request log keeps an API request (REQUEST_LOG_RETENTION_DAYS); 14 when absent. */
  readonly requestLogRetentionDays?: number | undefined;
}

export interface RunningWorkers {
  readonly worker: JobWorker;
  /** Stops claiming, waits for running jobs (at most webhookTimeoutMs) and writes their outcomes. */
  stop(): Promise<void>;
}

/** Every job kind the gateway knows; one place to add the next (schedule runs, callbacks …). */
export function gatewayJobHandlers(options: StartWorkersOptions & { readonly sender: NotificationSender }): JobHandler<any>[] {
  const handlers: JobHandler<any>[] = [deliverWebhookHandler({ storage: options.storage, clock: options.clock, sender: options.sender, logger: options.logger, observer: options.observer })];
  if (options.resolution) {
    const deps = { storage: options.storage, clock: options.clock, ids: randomIds, logger: options.logger, ...options.resolution };
    handlers.push(sweepPendingHandler(deps), resolvePendingHandler(deps));
    // Abandoned redirects end their payments (no 3-D Secure server is needed to say "expired").
    handlers.push(expireRedirectsHandler({ payments: { storage: deps.storage, clock: deps.clock, ids: deps.ids, observe: deps.connectors.observe }, logger: deps.logger, sweepIntervalMs: deps.settings.redirectSweepIntervalMs }));
    // Velocity attempts older than the longest window (docs/risk.md).
    handlers.push(pruneRiskAttemptsHandler({ storage: deps.storage, clock: deps.clock, logger: deps.logger }));
    // Requests an ISO 8583 acquirer host never answered are reversed by advice until acknowledged.
    handlers.push(reversalAdviceHandler({ registry: deps.connectors.registry, clock: deps.clock, logger: deps.logger }));
  }
  if (options.schedules) handlers.push(runScheduleHandler({ ...options.schedules, logger: options.logger }));
  const callbacks = { storage: options.storage, clock: options.clock, ids: randomIds, sender: options.sender, logger: options.logger, sweepIntervalMs: options.checkoutCallbackSweepIntervalMs ?? 15_000 };
  handlers.push(queueCheckoutCallbacksHandler(callbacks), sendCheckoutCallbackHandler(callbacks));
  if (options.settlement) handlers.push(settleDayHandler({ ...options.settlement, logger: options.logger }));
  handlers.push(switchWebhookSecretHandler({ storage: options.storage, clock: options.clock, logger: options.logger }));
  handlers.push(pruneRequestLogHandler({ storage: options.storage, clock: options.clock, logger: options.logger, retentionDays: options.requestLogRetentionDays ?? 14 }));
  handlers.push(rollUpOverviewHandler({ storage: options.storage, clock: options.clock, logger: options.logger }));
  return handlers;
}

/**
 * The jobs that are payments or status queries (a schedule's run, a pending transaction's check,
 * and the sweep that hands the checks out, so that its wake reaches the worker that runs them):
 * a worker of their own, with WORKER_PAYMENT_CONCURRENCY slots. Under WORKER_CONCURRENCY's 64
 * slots, shared with webhook calls, a second of 2,000 due runs made about 1,000 a second; each
 * run mostly waits on grouped writes, so more at once share the same statements (issue 36).
 */
const PAYMENT_JOB_KINDS: ReadonlySet<string> = new Set([SCHEDULE_RUN_JOB, RESOLVE_PENDING_JOB, SWEEP_PENDING_JOB]);

/** The handlers of the payment jobs' worker, and those of the other one. */
export function splitPaymentJobs<Handler extends { readonly kind: string }>(handlers: readonly Handler[]): { readonly payments: Handler[]; readonly others: Handler[] } {
  return { payments: handlers.filter((h) => PAYMENT_JOB_KINDS.has(h.kind)), others: handlers.filter((h) => !PAYMENT_JOB_KINDS.has(h.kind)) };
}

/** Starts the job worker loops of one process: inside `npm start`, or in `npm run worker`. */
export function startWorkers(options: StartWorkersOptions): RunningWorkers {
  const ownSender = options.sender
    ? undefined
    : httpNotificationSender({ timeoutMs: options.settings.webhookTimeoutMs, maxSocketsPerHost: options.settings.concurrency, targets: options.settings.webhookTargets });
  const sender = options.sender ?? ownSender!;
  const { payments, others } = splitPaymentJobs(gatewayJobHandlers({ ...options, sender }));
  const common = { ...options.settings, storage: options.storage, clock: options.clock, logger: options.logger, observer: options.observer };
  const worker = new JobWorker({ ...common, handlers: others });
  const paymentWorker = payments.length > 0 ? new JobWorker({ ...common, concurrency: options.settings.paymentJobConcurrency, workerId: `${worker.workerId}:payments`, handlers: payments }) : undefined;
  worker.start();
  paymentWorker?.start();
  // Readiness (GET /health/ready) of every gateway looks for a recent beat of some worker.
  const heartbeat = startHeartbeat({ storage: options.storage, workerId: worker.workerId, logger: options.logger });
  options.logger.info({ workerId: worker.workerId, concurrency: options.settings.concurrency, paymentJobConcurrency: paymentWorker ? options.settings.paymentJobConcurrency : 0 }, 'job worker started');
  return {
    worker,
    async stop() {
      await Promise.all([worker.stop(), paymentWorker?.stop()]);
      await heartbeat.stop();
      ownSender?.close();
      options.logger.info({ workerId: worker.workerId }, 'job worker stopped');
    },
  };
}
