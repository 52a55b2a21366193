import { SEND_CHECKOUT_CALLBACK_JOB } from '../operations/checkouts/shopper-result-callback.js';
import { SCHEDULE_RUN_JOB } from '../operations/schedules/schedule-firing.js';
import { DELIVER_WEBHOOK_JOB } from '../operations/webhooks/ports.js';
import { RESOLVE_PENDING_JOB, SWEEP_PENDING_JOB } from '../storage/repositories/pending-checks.js';
import { QUEUE_CHECKOUT_CALLBACKS_JOB } from './checkout-callbacks.js';
import { EXPIRE_REDIRECTS_JOB } from './expire-redirects.js';
import { PRUNE_RISK_ATTEMPTS_JOB } from './prune-risk-attempts.js';
import { PRUNE_REQUEST_LOG_JOB } from './prune-request-log.js';
import { ROLL_UP_OVERVIEW_JOB } from './roll-up-overview.js';
import { REVERSAL_ADVICE_JOB } from './send-reversal-advice.js';
import { SETTLE_DAY_JOB } from './settle-day.js';
import { SWITCH_WEBHOOK_SECRET_JOB } from './switch-webhook-secret.js';

/**
 * Every kind of job the gateway's workers run (start-workers.ts), so that the queue's gauges
 * (gateway_jobs_due, gateway_jobs_oldest_due_age_seconds) show each one, at 0 when none is due:
 * an alert on a series that is absent never fires. A test checks this list against the handlers.
 */
export const JOB_KINDS: readonly string[] = Object.freeze([
  DELIVER_WEBHOOK_JOB,
  SWEEP_PENDING_JOB,
  RESOLVE_PENDING_JOB,
  EXPIRE_REDIRECTS_JOB,
  PRUNE_RISK_ATTEMPTS_JOB,
  REVERSAL_ADVICE_JOB,
  SCHEDULE_RUN_JOB,
  QUEUE_CHECKOUT_CALLBACKS_JOB,
  SEND_CHECKOUT_CALLBACK_JOB,
  SETTLE_DAY_JOB,
  PRUNE_REQUEST_LOG_JOB,
  SWITCH_WEBHOOK_SECRET_JOB,
  ROLL_UP_OVERVIEW_JOB,
]);
