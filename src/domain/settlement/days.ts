/** Settlement days are UTC calendar days written YYYY-MM-DD (the simulated acquirer's business day). */

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Is `day` a real calendar day in YYYY-MM-DD form? */
export function isSettlementDay(day: string): boolean {
  if (!DAY_PATTERN.test(day)) return false;
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === day;
}

/** YYYY-MM-DD plus `days` (may be negative). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The start of the day and of the next one: [from, to). */
export function dayBounds(day: string): { readonly from: Date; readonly to: Date } {
  const from = new Date(`${day}T00:00:00Z`);
  return { from, to: new Date(from.getTime() + DAY_MS) };
}

/** The UTC day of an instant. */
export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/**
 * A settlement day has ended at the next midnight UTC: only then can the acquirers' files of the
 * day be whole (a file of the day read before would miss what the rest of the day brings).
 */
export function hasEnded(day: string, now: Date): boolean {
  return now.getTime() >= dayBounds(day).to.getTime();
}

/** How far back the daily run looks, and how many of the latest days it settles again. */
export interface SettleWindow {
  /** Days never settled in full are caught up on, this many back from `due` (itself included). */
  readonly catchUpDays: number;
  /** The latest days settled again by every run, settled before or not (a run that was early, late records). */
  readonly settleAgainDays: number;
}

/**
 * The days one run settles, oldest first, up to `due` (the latest day that has ended): those of
 * the catch-up window no run has finished, and the latest `settleAgainDays` whatever was done.
 */
export function daysToSettle(finished: ReadonlySet<string>, due: string, window: SettleWindow): string[] {
  const days: string[] = [];
  for (let back = Math.max(window.catchUpDays, window.settleAgainDays) - 1; back >= 0; back -= 1) {
    const day = addDays(due, -back);
    const caughtUp = back < window.catchUpDays && !finished.has(day);
    if (caughtUp || back < window.settleAgainDays) days.push(day);
  }
  return days;
}
