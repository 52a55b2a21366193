import type { Actor } from '../../domain/access/actor.js';
import type { Clock } from '../../domain/ids.js';
import type { Storage } from '../../storage/port.js';
import { jobRetried, jobsOfKindRetried } from '../audit/admin-changes.js';
import { withAudit } from '../audit/audited.js';
import { findTroubledJob, retryJob, retryJobsOfKind } from './job-queue.js';

type JobDeps = { readonly storage: Storage; readonly clock: Clock };

/** Runs one failed job again, audited (jobs.retry) with the job as it was: its kind, failures and last error (masked). */
export function retryJobAsOperator(deps: JobDeps, actor: Actor, jobId: string): Promise<{ jobId: string; kind: string }> {
  return withAudit(deps, actor, (scoped) => retryJob(scoped, jobId), jobRetried((db) => findTroubledJob(db, jobId)));
}

/** Runs every failed job of a kind again, audited (jobs.retry-kind) with how many. */
export function retryJobsOfKindAsOperator(deps: JobDeps, actor: Actor, kind: string): Promise<{ kind: string; retried: number }> {
  return withAudit(deps, actor, (scoped) => retryJobsOfKind(scoped, kind), jobsOfKindRetried());
}
