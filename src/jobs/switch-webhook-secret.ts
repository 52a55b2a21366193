import type { Clock } from '../domain/ids.js';
import { SWITCH_WEBHOOK_SECRET_JOB } from '../operations/webhooks/rotate-webhook-secret.js';
import type { Queryable } from '../storage/port.js';
import { switchToNextSecret } from '../storage/repositories/webhook-rotation.js';
import type { ClaimedJob, JobHandler, JobLogger, JobResult } from './job-types.js';

export { SWITCH_WEBHOOK_SECRET_JOB };

export interface SwitchWebhookSecretDeps {
  readonly storage: Queryable;
  readonly clock: Clock;
  readonly logger: JobLogger;
}

/**
 * 'switch-webhook-secret': at the end of a rotation's overlap the next secret replaces the old one.
 * Nothing to do when the merchant confirmed (or cancelled) earlier, or a newer rotation replaced it.
 */
export function switchWebhookSecretHandler(deps: SwitchWebhookSecretDeps): JobHandler {
  return { kind: SWITCH_WEBHOOK_SECRET_JOB, start: (jobs) => jobs.map((job) => switchOnce(deps, job)) };
}

async function switchOnce(deps: SwitchWebhookSecretDeps, job: ClaimedJob): Promise<JobResult<never>> {
  const payload = job.payload as { webhookId?: unknown; createdAt?: unknown };
  if (typeof payload.webhookId !== 'string' || typeof payload.createdAt !== 'string') return { outcome: 'given_up' };
  const switched = await switchToNextSecret(deps.storage, payload.webhookId, deps.clock.now(), new Date(payload.createdAt));
  if (switched) deps.logger.info({ webhookId: payload.webhookId }, 'webhook secret switched at the end of its rotation overlap');
  return { outcome: 'done' };
}
