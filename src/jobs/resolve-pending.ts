import type { ConnectorRouter } from '../connectors/router.js';
import type { ResolutionSettings } from '../config/resolution-settings.js';
import type { Clock, IdGenerator } from '../domain/ids.js';
import { checkPendingTransaction } from '../operations/pending/check-pending.js';
import type { Storage } from '../storage/port.js';
import { addPendingChecks, markLongPending, RESOLVE_PENDING_JOB, SWEEP_PENDING_JOB } from '../storage/repositories/pending-checks.js';
import type { ClaimedJob, JobHandler, JobLogger, JobResult } from './job-types.js';

export interface ResolvePendingDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: JobLogger;
  readonly connectors: ConnectorRouter;
  readonly settings: ResolutionSettings;
  /** Most pending transactions one sweep hands to checks (tests make it small). */
  readonly sweepBatch?: number | undefined;
}

/** Most pending transactions one sweep hands to checks; the next sweep takes the rest. */
const SWEEP_BATCH = 1_000;
/** Most rows one sweep marks as pending long: one short statement, its rows' locks held briefly. */
const MARK_BATCH = 5_000;
const MS_PER_MINUTE = 60_000;

/**
 * 'sweep-pending': the one durable job (written by migration 006) that finds transactions still
 * pending after the first delay and gives each a check. It plans its own next run, and a failed
 * sweep only waits for the next one: it must never end up failed and stop resolving for good.
 */
export function sweepPendingHandler(deps: ResolvePendingDeps): JobHandler {
  return {
    kind: SWEEP_PENDING_JOB,
    start: (jobs) => jobs.map(() => sweepOnce(deps)),
  };
}

export async function sweepOnce(deps: ResolvePendingDeps): Promise<JobResult<never>> {
  const now = deps.clock.now();
  const firstDelayMs = deps.settings.checkDelaysMinutes[0]! * MS_PER_MINUTE;
  const sweepBatch = deps.sweepBatch ?? SWEEP_BATCH;
  let added: number;
  try {
    added = await addPendingChecks(deps.storage, { createdBefore: new Date(now.getTime() - firstDelayMs), now, limit: sweepBatch });
    if (added > 0) deps.logger.info({ added }, 'pending transactions handed to the status checks');
    // Past the connector's timeout no request waits for its acquirer any more: what is still pending
    // waits for a shopper or is stuck, and may stay so for long. The search reads those apart
    // (migration 064); marking them sooner keeps the young pending rows it reads from the table few.
    const marked = await markLongPending(deps.storage, { createdBefore: new Date(now.getTime() - deps.settings.connectorTimeoutMs), limit: MARK_BATCH });
    if (marked > 0) deps.logger.info({ marked }, 'pending transactions entered into the search index of long-pending rows');
  } catch (error) {
    deps.logger.warn({ err: { type: (error as Error).name } }, 'pending sweep failed; trying again at the next sweep');
    return { runAgainAt: new Date(now.getTime() + deps.settings.sweepIntervalMs), outcome: 'retry' };
  }
  // A sweep that planned its next round did its work; the checks it handed out are due now. A
  // full batch means more are waiting (an acquirer's outage leaves thousands pending): the next
  // round comes at once rather than a sweep interval (a minute by default) per thousand.
  const nextRunAt = added >= sweepBatch ? now : new Date(now.getTime() + deps.settings.sweepIntervalMs);
  return { runAgainAt: nextRunAt, outcome: 'done', enqueuedDueJobs: added > 0 };
}

function transactionIdOf(job: ClaimedJob): string {
  const id = job.payload['transactionId'];
  if (typeof id !== 'string') throw new Error(`job ${job.id} has no transactionId`);
  return id;
}

/**
 * 'resolve-pending': one status check of one pending transaction, planned again on the back-off
 * schedule until the connector gives a final answer or the horizon ends it.
 */
export function resolvePendingHandler(deps: ResolvePendingDeps): JobHandler {
  const schedule = { checkDelaysMinutes: deps.settings.checkDelaysMinutes, horizonHours: deps.settings.horizonHours };
  const checkDeps = { ...deps, schedule, connectorTimeoutMs: deps.settings.connectorTimeoutMs };
  return {
    kind: RESOLVE_PENDING_JOB,
    start: (jobs) =>
      jobs.map(async (job): Promise<JobResult<never>> => {
        const transactionId = transactionIdOf(job);
        let result: Awaited<ReturnType<typeof checkPendingTransaction>>;
        try {
          result = await checkPendingTransaction(checkDeps, transactionId);
        } catch (error) {
          // A check must not end failed (the sweep gives each transaction one check): try again later.
          const retryAt = new Date(deps.clock.now().getTime() + deps.settings.checkDelaysMinutes[0]! * MS_PER_MINUTE);
          deps.logger.warn({ transactionId, err: { type: (error as Error).name }, retryAt }, 'pending check failed; trying again');
          return { runAgainAt: retryAt };
        }
        if (result.kind === 'again') {
          deps.logger.info({ transactionId, answer: result.answer, nextCheckAt: result.at }, 'pending transaction still open');
          return { runAgainAt: result.at };
        }
        const log = result.by === 'horizon' ? deps.logger.warn.bind(deps.logger) : deps.logger.info.bind(deps.logger);
        log({ transactionId, by: result.by, code: result.code }, 'pending transaction resolved');
        return {};
      }),
  };
}
