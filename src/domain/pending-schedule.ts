/**
 * When a pending transaction is asked about next: after each delay of the schedule in turn (the
 * first counted from the transaction's creation, the others from the previous question), the
 * last delay repeating, until the horizon; a question that would fall after the horizon is not
 * asked, and the last one is asked at the horizon, which ends the transaction unless it answers.
 */
export interface PendingSchedule {
  readonly checkDelaysMinutes: readonly number[];
  readonly horizonHours: number;
}

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;

export function delayBeforeCheckMinutes(schedule: PendingSchedule, checksDone: number): number {
  const delays = schedule.checkDelaysMinutes;
  return delays[Math.min(checksDone, delays.length - 1)]!;
}

export type NextCheck = { readonly kind: 'check'; readonly at: Date } | { readonly kind: 'horizon'; readonly at: Date };

/** After `checksDone` questions (the last at `lastCheckAt`, or none yet), the next one, or the end at the horizon. */
export function nextCheck(schedule: PendingSchedule, transaction: { readonly createdAt: Date }, checksDone: number, lastCheckAt: Date | null): NextCheck {
  const from = (lastCheckAt ?? transaction.createdAt).getTime();
  const next = from + delayBeforeCheckMinutes(schedule, checksDone) * MS_PER_MINUTE;
  const horizon = transaction.createdAt.getTime() + schedule.horizonHours * MS_PER_HOUR;
  return next < horizon ? { kind: 'check', at: new Date(next) } : { kind: 'horizon', at: new Date(horizon) };
}

/** Has the horizon passed? */
export function pastHorizon(schedule: PendingSchedule, transaction: { readonly createdAt: Date }, now: Date): boolean {
  return now.getTime() >= transaction.createdAt.getTime() + schedule.horizonHours * MS_PER_HOUR;
}

/** The code a transaction gets when its horizon ends it: "Previously pending transaction timed out". */
export const HORIZON_CODE = '100.396.103';
/** An operator's resolution: "transaction succeeded due to external update" or "Rejected … due to external update". */
export const OPERATOR_SUCCESS_CODE = '000.600.000';
export const OPERATOR_REJECTED_CODE = '100.397.102';
