/**
 * Back-off for jobs whose handler failed (threw): 1 s, 2 s, 4 s … doubling up to one hour, and
 * after JOB_MAX_FAILURES failures (about 14 hours in all) the job is parked as failed for an
 * operator to look at. Planned retries, like a webhook's schedule, do not count here.
 */
export const JOB_FIRST_RETRY_DELAY_MS = 1_000;
export const JOB_MAX_RETRY_DELAY_MS = 3_600_000;
export const JOB_MAX_FAILURES = 25;

/** The wait after the n-th failure (n counts from 1). */
export function failureDelayMs(failureCount: number): number {
  const exponent = Math.max(0, Math.min(failureCount - 1, 30));
  return Math.min(JOB_FIRST_RETRY_DELAY_MS * 2 ** exponent, JOB_MAX_RETRY_DELAY_MS);
}

export function shouldGiveUp(failureCount: number, maxFailures = JOB_MAX_FAILURES): boolean {
  return failureCount >= maxFailures;
}
