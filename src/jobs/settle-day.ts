import { addDays, dayBounds, dayOf, daysToCatchUp } from '../domain/settlement/days.js';
import type { SettlementSettings } from '../config/settlement-settings.js';
import type { OperationDeps, PaymentDeps } from '../operations/deps.js';
import { settlementSources } from '../operations/settlement/settlement-sources.js';
import type { SettlementSource } from '../operations/settlement/ingest-settlement.js';
import { pushFile } from '../operations/settlement/push-file.js';
import { runSettlementDay, type PushFile } from '../operations/settlement/run-settlement-day.js';
import { lastFinishedDay } from '../storage/repositories/settlement-days.js';
import type { JobHandler, JobLogger, JobResult } from './job-types.js';

export const SETTLE_DAY_JOB = 'settle-day';

/** A failed run tries again this much later (an acquirer's file may come late). */
const RETRY_MS = 15 * 60_000;

export interface SettleDayDeps {
  readonly operations: OperationDeps;
  readonly sources: () => readonly SettlementSource[];
  readonly filesDir: string;
  readonly runAtMinuteUtc: number;
  readonly catchUpDays: number;
  readonly logger: JobLogger;
  /** Pushes a file to the merchant's own server, when it registered one. */
  readonly push?: PushFile | undefined;
}

/** When the run of `day` is due: runAtMinuteUtc minutes into it. */
function runTimeOf(day: string, runAtMinuteUtc: number): Date {
  return new Date(dayBounds(day).from.getTime() + runAtMinuteUtc * 60_000);
}

/** The latest settlement day whose run time has come. */
export function latestDueDay(now: Date, runAtMinuteUtc: number): string {
  const today = dayOf(now);
  return now >= runTimeOf(today, runAtMinuteUtc) ? today : addDays(today, -1);
}

/**
 * 'settle-day': the one durable job (written by migration 022) that runs settlement every day at
 * SETTLEMENT_RUN_AT_MINUTE, catching up on the days it missed (at most SETTLEMENT_CATCH_UP_DAYS),
 * and plans its own next run. Several gateway processes share it: the queue hands it to one.
 */
export function settleDayHandler(deps: SettleDayDeps): JobHandler {
  return { kind: SETTLE_DAY_JOB, start: (jobs) => jobs.map(() => settleOnce(deps)) };
}

async function settleOnce(deps: SettleDayDeps): Promise<JobResult<never>> {
  const now = deps.operations.clock.now();
  const due = latestDueDay(now, deps.runAtMinuteUtc);
  try {
    for (const day of daysToCatchUp(await lastFinishedDay(deps.operations.storage), due, deps.catchUpDays)) {
      const result = await runSettlementDay(deps.operations, deps.sources(), deps.filesDir, day, deps.push);
      const failedPushes = result.files.filter((f) => f.pushed === 'failed').length;
      deps.logger.info({ day, records: result.ingest.records, inserted: result.ingest.inserted, chargebacks: result.ingest.chargebacks, files: result.files.length, failedPushes }, 'settlement day done');
    }
  } catch (error) {
    deps.logger.warn({ err: { type: (error as Error).name } }, 'settlement run failed; trying again later');
    return { runAgainAt: new Date(now.getTime() + RETRY_MS) };
  }
  return { runAgainAt: runTimeOf(addDays(due, 1), deps.runAtMinuteUtc) };
}

/** The daily run as the gateway's and the worker's main configure it. */
export function settleDayDepsOf(settings: SettlementSettings, payments: PaymentDeps): Omit<SettleDayDeps, 'logger'> {
  return {
    operations: payments,
    sources: () => settlementSources(payments.connectors.registry),
    filesDir: settings.filesDir,
    runAtMinuteUtc: settings.runAtMinuteUtc,
    catchUpDays: settings.catchUpDays,
    push: (merchantId, path) => pushFile({ storage: payments.storage, vault: payments.vault, targets: payments.webhookTargets }, merchantId, path),
  };
}
