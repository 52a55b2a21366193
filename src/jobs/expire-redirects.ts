import { expireRedirects, type ExpiryDeps } from '../operations/redirects/expire-redirects.js';
import type { JobHandler, JobLogger, JobResult } from './job-types.js';

export const EXPIRE_REDIRECTS_JOB = 'expire-redirects';

/** Most redirects one run ends; the next run (at once) takes the rest. */
const BATCH = 100;

export interface ExpireRedirectsDeps {
  readonly payments: ExpiryDeps;
  readonly logger: JobLogger;
  readonly sweepIntervalMs: number;
}

/**
 * 'expire-redirects': the one durable job (written by migration 018) that ends redirects nobody
 * completed in time. It plans its own next run; a failed run only waits for the next one.
 */
export function expireRedirectsHandler(deps: ExpireRedirectsDeps): JobHandler {
  return {
    kind: EXPIRE_REDIRECTS_JOB,
    start: (jobs) => jobs.map(() => expireOnce(deps)),
  };
}

async function expireOnce(deps: ExpireRedirectsDeps): Promise<JobResult<never>> {
  const now = deps.payments.clock.now();
  try {
    const ended = await expireRedirects(deps.payments, BATCH);
    if (ended > 0) deps.logger.info({ ended }, 'expired shopper redirects ended');
    if (ended === BATCH) return { runAgainAt: now, outcome: 'done' };
  } catch (error) {
    deps.logger.warn({ err: { type: (error as Error).name } }, 'redirect expiry failed; trying again at the next run');
    return { runAgainAt: new Date(now.getTime() + deps.sweepIntervalMs), outcome: 'retry' };
  }
  return { runAgainAt: new Date(now.getTime() + deps.sweepIntervalMs), outcome: 'done' };
}
