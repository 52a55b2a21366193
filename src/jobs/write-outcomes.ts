import type { Queryable, Storage } from '../storage/port.js';
import { deleteJobs, rescheduleJobs, type ClaimedJob, type JobReschedule } from '../storage/repositories/jobs.js';
import { isDatabaseUnavailable } from '../storage/errors.js';
import { maskPanLikeDigits } from '../domain/redact.js';
import { jobSubject } from './job-subject.js';
import { failureDelayMs, shouldGiveUp } from './failure-backoff.js';
import type { JobHandler, JobLogger, JobResult, JobRunOutcome } from './job-types.js';

/** A job that ran: what it returned, or why it failed. */
export type FinishedJob = { readonly job: ClaimedJob; readonly handler: JobHandler<unknown> } & (
  | { readonly ok: true; readonly result: JobResult<unknown> }
  | { readonly ok: false; readonly error: unknown }
);

export interface OutcomeContext {
  readonly workerId: string;
  readonly now: Date;
  readonly maxFailures: number;
  readonly logger: JobLogger;
}

const MAX_ERROR_LENGTH = 500;

/**
 * Writes finished jobs in one transaction: each kind's records, then deletes the finished jobs
 * and reschedules the others. When that fails for a reason other than the database being away,
 * the jobs are written one by one, so one bad record cannot hold back a whole batch.
 */
export async function writeOutcomes(storage: Storage, entries: readonly FinishedJob[], context: OutcomeContext): Promise<void> {
  try {
    await storage.transaction((tx) => writeInTransaction(tx, entries, context));
  } catch (error) {
    if (isDatabaseUnavailable(error) || entries.length === 1) throw error;
    for (const entry of entries) await writeAlone(storage, entry, context);
  }
}

async function writeAlone(storage: Storage, entry: FinishedJob, context: OutcomeContext): Promise<void> {
  try {
    await storage.transaction((tx) => writeInTransaction(tx, [entry], context));
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    // Its record cannot be written: the job counts as failed and runs again after a back-off.
    const failed: FinishedJob = { job: entry.job, handler: entry.handler, ok: false, error };
    await storage.transaction((tx) => writeInTransaction(tx, [failed], context));
  }
}

async function writeInTransaction(tx: Queryable, entries: readonly FinishedJob[], context: OutcomeContext): Promise<void> {
  for (const [handler, records] of recordsByHandler(entries)) await handler.record?.(tx, records);
  const done: string[] = [];
  const later: JobReschedule[] = [];
  for (const entry of entries) {
    if (!entry.ok) later.push(failureReschedule(entry.job, entry.error, context));
    else if (entry.result.runAgainAt) later.push({ id: entry.job.id, runAt: entry.result.runAgainAt, failureCount: entry.job.failureCount, lastError: null, failedAt: null });
    else done.push(entry.job.id);
  }
  const written = (await deleteJobs(tx, context.workerId, done)) + (await rescheduleJobs(tx, context.workerId, later));
  if (written < entries.length) {
    // Our lease ran out and another worker took these jobs over; it will finish them.
    context.logger.warn({ workerId: context.workerId, lost: entries.length - written }, 'job leases lost before completion');
  }
}

function recordsByHandler(entries: readonly FinishedJob[]): Map<JobHandler<unknown>, unknown[]> {
  const groups = new Map<JobHandler<unknown>, unknown[]>();
  for (const entry of entries) {
    if (!entry.ok || entry.result.record === undefined) continue;
    const group = groups.get(entry.handler);
    if (group) group.push(entry.result.record);
    else groups.set(entry.handler, [entry.result.record]);
  }
  return groups;
}

/**
 * How a finished job's run counts: a failure is a retry until it reaches the last of maxFailures
 * (then the job is parked: given up); a result says so itself, or is a retry when it runs again.
 */
export function runOutcomeOf(entry: FinishedJob, maxFailures: number): JobRunOutcome {
  if (!entry.ok) return shouldGiveUp(entry.job.failureCount + 1, maxFailures) ? 'given_up' : 'retry';
  return entry.result.outcome ?? (entry.result.runAgainAt ? 'retry' : 'done');
}

function failureReschedule(job: ClaimedJob, error: unknown, context: OutcomeContext): JobReschedule {
  const failureCount = job.failureCount + 1;
  const giveUp = shouldGiveUp(failureCount, context.maxFailures);
  // Masked before it is cut (a cut card number would escape the mask): a connector's error may quote what it was sent.
  const lastError = maskPanLikeDigits(error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, MAX_ERROR_LENGTH);
  context.logger.warn({ jobId: job.id, kind: job.kind, ...jobSubject(job.payload), failureCount, giveUp, error: lastError }, 'job failed');
  return {
    id: job.id,
    runAt: new Date(context.now.getTime() + failureDelayMs(failureCount)),
    failureCount,
    lastError,
    failedAt: giveUp ? context.now : null,
  };
}
