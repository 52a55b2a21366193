import { dayBounds, hasEnded } from '../../domain/settlement/days.js';
import { isDayFinished, markDayFinished } from '../../storage/repositories/settlement-days.js';
import { merchantsOfDay } from '../../storage/repositories/settlement-lines.js';
import type { OperationDeps } from '../deps.js';
import type { Observer } from '../../observability/observer.js';
import { ingestSettlement, type IngestSummary, type SettlementSource } from './ingest-settlement.js';
import { writeReconciliationFile, type WrittenFile } from './write-reconciliation-file.js';

export interface SettlementDayResult {
  readonly day: string;
  readonly ingest: IngestSummary;
  readonly files: readonly (Omit<WrittenFile, 'path'> & { readonly pushed?: 'yes' | 'failed' })[];
}

/** Pushes a written file to the merchant's own server; false when the merchant has none. */
export type PushFile = (merchantId: string, path: string) => Promise<boolean>;

async function pushed(push: PushFile | undefined, merchantId: string, path: string): Promise<{ pushed?: 'yes' | 'failed' }> {
  if (!push) return {};
  try {
    return (await push(merchantId, path)) ? { pushed: 'yes' } : {};
  } catch {
    // The file stays on the built-in SFTP server; the merchant's server gets the next day's.
    return { pushed: 'failed' };
  }
}

/** Settlement runs report what they ingested where there are metrics (the gateway and the worker; not the command line). */
export type SettlementRunDeps = OperationDeps & { readonly observe?: Pick<Observer, 'settlementRecords'> | undefined };

/**
 * Each source's records of the day: matched, unmatched (no transaction, or several: an operator
 * decides) and duplicate (stored before: a file delivered again, or the day settled again).
 */
function observeIngest(deps: SettlementRunDeps, ingest: IngestSummary): void {
  for (const source of ingest.bySource) {
    deps.observe?.settlementRecords({ connector: source.connectorId, matched: source.matched, unmatched: source.notMatched + source.multipleMatches, duplicate: source.records - source.inserted });
  }
}

/** A settlement day asked for before it ended: its files cannot be whole yet. */
export class SettlementDayNotEnded extends Error {
  constructor(readonly day: string) {
    super(`settlement day ${day} has not ended yet: it can be settled from ${dayBounds(day).to.toISOString()} on`);
    this.name = 'SettlementDayNotEnded';
  }
}

/** How a run treats the files of a day settled before. */
export interface SettlementRunOptions {
  /**
   * Write and push every merchant's file of the day again, not only those that gained lines: an
   * operator's way to redo a push that failed (the records are still applied once).
   */
  readonly rewriteFiles?: boolean;
}

/** The merchants whose file of the day is (re)written: all on the day's first run (or when asked), else those with new records. */
async function merchantsToWrite(deps: OperationDeps, day: string, writeAll: boolean, ingest: IngestSummary): Promise<readonly string[]> {
  const all = await merchantsOfDay(deps.storage, day);
  if (writeAll) return all;
  const changed = new Set(ingest.merchantsWithNewRecords);
  return all.filter((merchantId) => changed.has(merchantId));
}

/**
 * One settlement day end to end: ingest every source, then write each merchant's reconciliation
 * file of the day (and push it to the merchant's own server when it has one), then note the day
 * as done. Only a day that has ended (SettlementDayNotEnded otherwise). A day may be settled
 * again: what was applied stays applied once (records are stored once, a chargeback applied with
 * its record), what is new is added, and only the files that gained lines are written and pushed.
 */
export async function runSettlementDay(
  deps: SettlementRunDeps,
  sources: readonly SettlementSource[],
  filesDir: string,
  day: string,
  push?: PushFile,
  options: SettlementRunOptions = {},
): Promise<SettlementDayResult> {
  if (!hasEnded(day, deps.clock.now())) throw new SettlementDayNotEnded(day);
  const settledBefore = await isDayFinished(deps.storage, day);
  const ingest = await ingestSettlement(deps, sources, day);
  observeIngest(deps, ingest);
  const files: SettlementDayResult['files'][number][] = [];
  for (const merchantId of await merchantsToWrite(deps, day, !settledBefore || options.rewriteFiles === true, ingest)) {
    const written = await writeReconciliationFile(deps.storage, filesDir, merchantId, day);
    files.push({ name: `${merchantId}/${written.name}`, lines: written.lines, ...(await pushed(push, merchantId, written.path)) });
  }
  await markDayFinished(deps.storage, day, deps.clock.now());
  return { day, ingest, files };
}
