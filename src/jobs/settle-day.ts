import { addDays, dayBounds, dayOf, daysToSettle, type SettleWindow } from '../domain/settlement/days.js';
import type { SettlementSettings } from '../config/settlement-settings.js';
import type { PaymentDeps } from '../operations/deps.js';
import { settlementSources } from '../operations/settlement/settlement-sources.js';
import type { SettlementSource } from '../operations/settlement/ingest-settlement.js';
import { pushFile } from '../operations/settlement/push-file.js';
import { runSettlementDay, type PushFile, type SettlementRunDeps } from '../operations/settlement/run-settlement-day.js';
import { finishedDays } from '../storage/repositories/settlement-days.js';
import type { JobHandler, JobLogger, JobResult } from './job-types.js';

export const SETTLE_DAY_JOB = 'settle-day';

/** A failed run tries again this much later (an acquirer's file may come late). */
const RETRY_MS = 15 * 60_000;

export interface SettleDayDeps {
  /** The payment deps in the gateway and the worker: their observer counts the records ingested. */
  readonly operations: SettlementRunDeps;
  readonly sources: () => readonly SettlementSource[];
  readonly filesDir: string;
  readonly runAtMinuteUtc: number;
  readonly window: SettleWindow;
  readonly logger: JobLogger;
  /** Pushes a file to the merchant's own server, when it registered one. */
  readonly push?: PushFile | undefined;
}

/** When the run of `day` is due: runAtMinuteUtc minutes after it ended (never before: its files would not be whole). */
function runTimeOf(day: string, runAtMinuteUtc: number): Date {
  return new Date(dayBounds(day).to.getTime() + runAtMinuteUtc * 60_000);
}

/** The latest settlement day whose run time has come: yesterday from runAtMinuteUtc on, else the day before. */
export function latestDueDay(now: Date, runAtMinuteUtc: number): string {
  const yesterday = addDays(dayOf(now), -1);
  return now >= runTimeOf(yesterday, runAtMinuteUtc) ? yesterday : addDays(yesterday, -1);
}

/**
 * 'settle-day': the one durable job (written by migration 022) that runs settlement every day at
 * SETTLEMENT_RUN_AT_MINUTE for the day that ended at midnight, catches up on the days no run
 * finished (at most SETTLEMENT_CATCH_UP_DAYS back), settles the latest SETTLEMENT_SETTLE_AGAIN_DAYS
 * again (a run that came early, by a clock ahead, is completed so), and plans its own next run.
 * Several gateway processes share it: the queue hands it to one.
 */
export function settleDayHandler(deps: SettleDayDeps): JobHandler {
  return { kind: SETTLE_DAY_JOB, start: (jobs) => jobs.map(() => settleOnce(deps)) };
}

async function settleOnce(deps: SettleDayDeps): Promise<JobResult<never>> {
  const now = deps.operations.clock.now();
  const due = latestDueDay(now, deps.runAtMinuteUtc);
  try {
    const oldest = addDays(due, 1 - Math.max(deps.window.catchUpDays, deps.window.settleAgainDays, 1));
    for (const day of daysToSettle(await finishedDays(deps.operations.storage, oldest, due), due, deps.window)) {
      const result = await runSettlementDay(deps.operations, deps.sources(), deps.filesDir, day, deps.push);
      const failedPushes = result.files.filter((f) => f.pushed === 'failed').length;
      deps.logger.info({ day, records: result.ingest.records, inserted: result.ingest.inserted, chargebacks: result.ingest.chargebacks, files: result.files.length, failedPushes }, 'settlement day done');
    }
  } catch (error) {
    deps.logger.warn({ err: { type: (error as Error).name } }, 'settlement run failed; trying again later');
    return { runAgainAt: new Date(now.getTime() + RETRY_MS) };
  }
  // The same job plans the next day's run: this one is done.
  return { runAgainAt: runTimeOf(addDays(due, 1), deps.runAtMinuteUtc), outcome: 'done' };
}

/** The daily run as the gateway's and the worker's main configure it. */
export function settleDayDepsOf(settings: SettlementSettings, payments: PaymentDeps): Omit<SettleDayDeps, 'logger'> {
  return {
    operations: payments,
    sources: () => settlementSources(payments.connectors.registry),
    filesDir: settings.filesDir,
    runAtMinuteUtc: settings.runAtMinuteUtc,
    window: { catchUpDays: settings.catchUpDays, settleAgainDays: settings.settleAgainDays },
    push: (merchantId, path) => pushFile({ storage: payments.storage, vault: payments.vault, targets: payments.webhookTargets }, merchantId, path),
  };
}
