import type { Clock, IdGenerator } from '../domain/ids.js';
import { queueDueCallbacks, SEND_CHECKOUT_CALLBACK_JOB, sendCheckoutCallback } from '../operations/checkouts/shopper-result-callback.js';
import type { NotificationSender } from '../operations/webhooks/ports.js';
import type { Storage } from '../storage/port.js';
import type { JobHandler, JobLogger, JobResult } from './job-types.js';

export const QUEUE_CHECKOUT_CALLBACKS_JOB = 'queue-checkout-callbacks';

/** Most checkouts one sweep takes; the next sweep (at once) takes the rest. */
const BATCH = 100;

export interface CheckoutCallbackDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly sender: NotificationSender;
  readonly logger: JobLogger;
  readonly sweepIntervalMs: number;
}

/**
 * 'queue-checkout-callbacks': the one durable job (written by migration 020) that finds checkouts
 * whose 29-minute callback fell due and queues a sending job for each. It plans its own next run.
 */
export function queueCheckoutCallbacksHandler(deps: CheckoutCallbackDeps): JobHandler {
  return { kind: QUEUE_CHECKOUT_CALLBACKS_JOB, start: (jobs) => jobs.map(() => sweepOnce(deps)) };
}

async function sweepOnce(deps: CheckoutCallbackDeps): Promise<JobResult<never>> {
  const now = deps.clock.now();
  try {
    const taken = await queueDueCallbacks(deps, BATCH);
    if (taken === BATCH) return { runAgainAt: now, outcome: 'done' };
  } catch (error) {
    deps.logger.warn({ err: { type: (error as Error).name } }, 'checkout callback sweep failed; trying again at the next run');
    return { runAgainAt: new Date(now.getTime() + deps.sweepIntervalMs), outcome: 'retry' };
  }
  return { runAgainAt: new Date(now.getTime() + deps.sweepIntervalMs), outcome: 'done' };
}

/** 'send-checkout-callback': one GET to a checkout's shopperResultUrl; a failure is retried with back-off. */
export function sendCheckoutCallbackHandler(deps: CheckoutCallbackDeps): JobHandler {
  return {
    kind: SEND_CHECKOUT_CALLBACK_JOB,
    start: (jobs) =>
      jobs.map(async (job) => {
        const checkoutId = String(job.payload['checkoutId']);
        const result = await sendCheckoutCallback(deps, checkoutId);
        if (result === 'refused') deps.logger.warn({ checkoutId }, 'shopper result callback refused: the address breaks the target rules');
        return {};
      }),
  };
}
