import type { Clock } from '../../domain/ids.js';
import type { Storage } from '../../storage/port.js';
import { firstTransactionAt, foldChangedOpenRows, lockWatermark, rollUpRange } from '../../storage/repositories/overview-rollup.js';

/**
 * How far behind the clock the watermark stays: a payment's row is written with created_at taken
 * before its database transaction commits, so rows may appear a little in the past. Five minutes
 * is far longer than any payment's transaction; the overview reads these minutes live.
 */
export const OVERVIEW_LAG_MS = 5 * 60_000;
/** The most of history one step reads (a first run over years goes in steps, each committed). */
const STEP_MS = 24 * 3_600_000;

export interface RollUpResult {
  /** Transactions read into the rollup (or kept open) and open ones folded in. */
  readonly read: number;
  /** The watermark has reached the clock (less the lag): nothing more to do now. */
  readonly caughtUp: boolean;
}

/**
 * One step of the overview's rollup (migration 054): recounts the open (pending) transactions
 * that changed, then reads at most a day of newer transactions, in one database transaction
 * that holds the watermark's row lock (two workers never roll the same rows).
 */
export async function rollUpOverview(deps: { readonly storage: Storage; readonly clock: Clock }): Promise<RollUpResult> {
  const target = new Date(deps.clock.now().getTime() - OVERVIEW_LAG_MS);
  return deps.storage.transaction(async (tx) => {
    const watermark = await lockWatermark(tx);
    const folded = await foldChangedOpenRows(tx);
    const from = watermark ?? (await firstTransactionAt(tx));
    if (from === null || from >= target) {
      if (watermark === null) await rollUpRange(tx, null, target);
      return { read: folded, caughtUp: true };
    }
    const to = new Date(Math.min(target.getTime(), from.getTime() + STEP_MS));
    const read = await rollUpRange(tx, watermark === null ? null : from, to);
    return { read: folded + read, caughtUp: to.getTime() === target.getTime() };
  });
}
