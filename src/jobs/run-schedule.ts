import { runFiring, type DueFiring } from '../operations/schedules/run-firing.js';
import type { ScheduleDeps } from '../operations/schedules/schedule-deps.js';
import { SCHEDULE_RUN_JOB } from '../operations/schedules/schedule-firing.js';
import { findSchedulesById } from '../storage/repositories/schedules.js';
import type { ClaimedJob, JobHandler, JobLogger, JobResult } from './job-types.js';

/** How long a firing that failed (not a declined payment: an error) waits before it is made again. */
const FIRING_RETRY_MS = 30_000;

function firingOf(job: ClaimedJob): DueFiring {
  const { scheduleId, fireAt, attempt } = job.payload;
  if (typeof scheduleId !== 'string' || typeof fireAt !== 'string' || typeof attempt !== 'number') throw new Error(`job ${job.id} is not a schedule firing`);
  return { jobId: job.id, scheduleId, fireAt: new Date(fireAt), attempt, dueAt: job.runAt };
}

/**
 * 'schedule-run': one firing of one schedule. Each active schedule has exactly one such job (its
 * next fire time, or the retry of a declined run), claimed like every job with SKIP LOCKED, so a
 * firing is made by one process whatever their number. The firing plans the next job itself, in
 * the transaction that records it; the schedules of a claimed batch are read in one query.
 * A failure (the database went away) makes the firing again after FIRING_RETRY_MS: it is
 * idempotent, so making it again pays nothing twice.
 */
export function runScheduleHandler(deps: ScheduleDeps & { readonly logger: JobLogger }): JobHandler {
  return {
    kind: SCHEDULE_RUN_JOB,
    start(jobs) {
      const firings = jobs.map((job) => {
        try {
          return firingOf(job);
        } catch (error) {
          return error as Error;
        }
      });
      const ids = firings.flatMap((f) => (f instanceof Error ? [] : [f.scheduleId]));
      const loaded = findSchedulesById(deps.payments.storage, ids);
      return firings.map(async (firing): Promise<JobResult<never>> => {
        if (firing instanceof Error) {
          deps.logger.error({ err: firing.message }, 'malformed schedule job dropped');
          return {};
        }
        let result: Awaited<ReturnType<typeof runFiring>>;
        try {
          result = await runFiring(deps, firing, (await loaded).get(firing.scheduleId));
        } catch (error) {
          // A firing must not end failed and stop its schedule for good (the database was away, a
          // deadlock …): it is made again later, and its idempotency claim keeps that from paying twice.
          const retryAt = new Date(deps.payments.clock.now().getTime() + FIRING_RETRY_MS);
          deps.logger.warn({ scheduleId: firing.scheduleId, err: { type: (error as Error).name, code: (error as { code?: unknown }).code }, retryAt }, 'schedule run failed; trying again');
          return { runAgainAt: retryAt };
        }
        if (result.kind === 'ran') {
          deps.logger.info({ scheduleId: firing.scheduleId, fireAt: firing.fireAt, attempt: firing.attempt, outcome: result.outcome, transactionId: result.transactionId, ended: result.ended }, 'schedule run');
        }
        return {};
      });
    },
  };
}
