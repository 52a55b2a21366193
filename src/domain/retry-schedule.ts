/**
 * When a notification that was not acknowledged is tried again: after about 1, 2, 4, 8, 15 and
 * 30 minutes, then every hour, for up to 30 days after the first attempt (compatibility.md).
 * Delays count from the failed attempt itself, so a backlog never squeezes the gaps together.
 */
export const EARLY_RETRY_DELAYS_MINUTES: readonly number[] = [1, 2, 4, 8, 15, 30];
export const LATE_RETRY_DELAY_MINUTES = 60;
export const DELIVERY_GIVE_UP_AFTER_DAYS = 30;

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;

/** The wait after the n-th failed attempt (n counts from 1). */
export function retryDelayMinutes(failedAttempts: number): number {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1) throw new RangeError('failedAttempts counts from 1');
  return EARLY_RETRY_DELAYS_MINUTES[failedAttempts - 1] ?? LATE_RETRY_DELAY_MINUTES;
}

export interface FailedAttempt {
  /** When the first attempt of this delivery was made. */
  readonly firstAttemptAt: Date;
  /** How many attempts have failed so far, this one included. */
  readonly failedAttempts: number;
  /** When this failed attempt was made. */
  readonly attemptedAt: Date;
}

/** When to try again, or undefined when the next try would fall after the 30 days: give up. */
export function nextAttemptAt(attempt: FailedAttempt): Date | undefined {
  const next = attempt.attemptedAt.getTime() + retryDelayMinutes(attempt.failedAttempts) * MS_PER_MINUTE;
  const deadline = attempt.firstAttemptAt.getTime() + DELIVERY_GIVE_UP_AFTER_DAYS * MS_PER_DAY;
  return next > deadline ? undefined : new Date(next);
}
