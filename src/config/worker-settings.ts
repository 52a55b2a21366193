import { parseAllowList } from '../domain/webhook-address.js';
import type { WebhookTargetRules } from '../domain/webhook-url.js';
import type { JobWorkerSettings } from '../jobs/job-worker.js';
import { readBoolean, readInteger, readOptional, type Env } from './env-readers.js';

/** The background workers' settings; part of the one configuration loadConfig returns. */
export interface WorkerSettings extends JobWorkerSettings {
  /** Whether `npm start` runs the workers inside the gateway process. */
  readonly runInGateway: boolean;
  /** A receiver must answer within this time; the lease must be longer. */
  readonly webhookTimeoutMs: number;
  /** Which addresses notifications may go to (every sender and every URL check reads these). */
  readonly webhookTargets: WebhookTargetRules;
  /** Scheduled runs and status checks one process makes at once (start-workers.ts: a worker of their own). */
  readonly paymentJobConcurrency: number;
}

export const WORKER_VARIABLES = [
  ['WORKERS_IN_GATEWAY', 'true', '`false` stops `npm start` from running background jobs (then run `npm run worker`, PostgreSQL only).'],
  ['WORKER_CONCURRENCY', '64', 'Jobs (webhook calls) one worker process runs at the same time.'],
  ['WORKER_BATCH_SIZE', '64', 'Most jobs one claim takes from the queue.'],
  ['WORKER_PAYMENT_CONCURRENCY', '256', 'Scheduled runs and status checks one worker process makes at the same time, apart from WORKER_CONCURRENCY (so a second of due runs does not wait behind the webhook calls\' slots, nor merchants\' webhook endpoints get more calls at once).'],
  ['WORKER_POLL_INTERVAL_MS', '500', 'How long an idle worker waits before it looks for due jobs again.'],
  ['WORKER_LEASE_MS', '60000', 'How long a claimed job stays locked; after a worker dies its jobs run again once this has passed. Must exceed WEBHOOK_TIMEOUT_MS.'],
  ['WEBHOOK_TIMEOUT_MS', '30000', 'A webhook receiver must answer within this time, else the attempt failed.'],
  ['WEBHOOK_ALLOWED_ADDRESSES', '(unset)', 'Comma-separated addresses or CIDR ranges (127.0.0.1/32, ::1) that webhooks and notificationUrl may reach although they are not public; for tests. Unset: public addresses only.'],
] as const;

function readWebhookTargets(env: Env, system: 'test' | 'live', problems: string[]): WebhookTargetRules {
  const { ranges, invalid } = parseAllowList(readOptional(env, 'WEBHOOK_ALLOWED_ADDRESSES') ?? '');
  if (invalid.length > 0) problems.push(`WEBHOOK_ALLOWED_ADDRESSES: ${invalid.map((e) => JSON.stringify(e)).join(', ')} must be IP addresses or CIDR ranges`);
  return Object.freeze({ httpsOnly: system === 'live', allowedAddresses: Object.freeze(ranges), localReceiversAllowed: system === 'test' });
}

/** Reads the worker variables, adding any problem to `problems` (loadConfig reports them all). */
export function collectWorkerSettings(env: Env, problems: string[], system: 'test' | 'live'): WorkerSettings {
  const webhookTimeoutMs = readInteger(env, 'WEBHOOK_TIMEOUT_MS', 30_000, 100, 300_000, problems);
  const leaseMs = readInteger(env, 'WORKER_LEASE_MS', 60_000, 1_000, 86_400_000, problems);
  if (leaseMs <= webhookTimeoutMs) problems.push('WORKER_LEASE_MS must be longer than WEBHOOK_TIMEOUT_MS');
  return Object.freeze({
    runInGateway: readBoolean(env, 'WORKERS_IN_GATEWAY', true, problems),
    concurrency: readInteger(env, 'WORKER_CONCURRENCY', 64, 1, 10_000, problems),
    batchSize: readInteger(env, 'WORKER_BATCH_SIZE', 64, 1, 1_000, problems),
    paymentJobConcurrency: readInteger(env, 'WORKER_PAYMENT_CONCURRENCY', 256, 1, 10_000, problems),
    pollIntervalMs: readInteger(env, 'WORKER_POLL_INTERVAL_MS', 500, 10, 60_000, problems),
    leaseMs,
    // Sweeping twice per lease keeps a dead worker's jobs waiting at most 1.5 leases.
    sweepIntervalMs: Math.max(500, Math.floor(leaseMs / 2)),
    webhookTimeoutMs,
    webhookTargets: readWebhookTargets(env, system, problems),
  });
}
