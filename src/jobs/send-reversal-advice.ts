import type { ConnectorRegistry } from '../connectors/registry.js';
import type { AdviceOriginal } from '../connectors/iso8583/messages.js';
import type { AdviceResult, PendingAdvice, ReversalAdviceQueue } from '../connectors/iso8583/reversal-advice.js';
import type { Clock } from '../domain/ids.js';
import type { Queryable } from '../storage/port.js';
import { enqueueJob } from '../storage/repositories/jobs.js';
import type { ClaimedJob, JobHandler, JobLogger, JobResult } from './job-types.js';
import { jobSubject } from './job-subject.js';

export const REVERSAL_ADVICE_JOB = 'iso8583-reversal-advice';

/** The pause before the next attempt: half the advice's age, from 2 seconds to 10 minutes. */
const MIN_RETRY_MS = 2_000;
const MAX_RETRY_MS = 600_000;

/** The durable queue the ISO 8583 connector leaves its advices in: one job row each (no card data in it). */
export function reversalAdviceQueue(storage: Queryable, clock: Clock): ReversalAdviceQueue {
  return {
    async enqueue(advice: PendingAdvice) {
      await enqueueJob(storage, { kind: REVERSAL_ADVICE_JOB, payload: { connectorId: advice.connectorId, original: { ...advice.original } }, runAt: clock.now() });
    },
  };
}

interface AdviceSender {
  sendReversalAdvice(original: AdviceOriginal, repeat: boolean): Promise<AdviceResult>;
}

function senderOf(registry: ConnectorRegistry, connectorId: string): AdviceSender | undefined {
  const connector = registry.connectorById(connectorId) as Partial<AdviceSender> | undefined;
  return typeof connector?.sendReversalAdvice === 'function' ? (connector as AdviceSender) : undefined;
}

/**
 * 'iso8583-reversal-advice': a request the acquirer host never answered is reversed by advice
 * (0420, then 0421), again and again until the host acknowledges it (0430). The job never
 * gives up: an unacknowledged advice may leave a shopper charged. The payment itself stays
 * pending until the status check (which advises too) ends it.
 */
export function reversalAdviceHandler(deps: { readonly registry: ConnectorRegistry; readonly clock: Clock; readonly logger: JobLogger }): JobHandler {
  return {
    kind: REVERSAL_ADVICE_JOB,
    start: (jobs) => jobs.map((job) => adviseOnce(deps, job)),
  };
}

async function adviseOnce(deps: { readonly registry: ConnectorRegistry; readonly clock: Clock; readonly logger: JobLogger }, job: ClaimedJob): Promise<JobResult<never>> {
  const connectorId = String(job.payload['connectorId'] ?? '');
  const original = job.payload['original'] as AdviceOriginal | undefined;
  const sender = senderOf(deps.registry, connectorId);
  const now = deps.clock.now();
  const retryAt = new Date(now.getTime() + Math.min(MAX_RETRY_MS, Math.max(MIN_RETRY_MS, (now.getTime() - job.createdAt.getTime()) / 2)));
  if (!sender || !original) {
    deps.logger.error({ jobId: job.id, ...jobSubject(job.payload), connectorId }, 'reversal advice for a connector this process lacks; trying again later');
    return { runAgainAt: retryAt };
  }
  const repeat = job.runAt.getTime() > job.createdAt.getTime();
  const result = await sender.sendReversalAdvice(original, repeat).catch((): AdviceResult => 'unanswered');
  if (result === 'acknowledged') {
    deps.logger.info({ transactionId: original.transactionId, connectorId }, 'reversal advice acknowledged');
    return {};
  }
  deps.logger.warn({ transactionId: original.transactionId, connectorId, retryAt }, 'reversal advice not acknowledged; repeating');
  return { runAgainAt: retryAt };
}
