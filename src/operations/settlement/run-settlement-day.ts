import { markDayFinished } from '../../storage/repositories/settlement-days.js';
import { merchantsOfDay } from '../../storage/repositories/settlement-lines.js';
import type { OperationDeps } from '../deps.js';
import { ingestSettlement, type IngestSummary, type SettlementSource } from './ingest-settlement.js';
import { writeReconciliationFile, type WrittenFile } from './write-reconciliation-file.js';

export interface SettlementDayResult {
  readonly day: string;
  readonly ingest: IngestSummary;
  readonly files: readonly Omit<WrittenFile, 'path'>[];
}

/**
 * One settlement day end to end: ingest every source, then write each merchant's reconciliation
 * file of the day, then note the day as done. Every step may run again: ingest changes nothing
 * the second time and a file is replaced by the same file.
 */
export async function runSettlementDay(deps: OperationDeps, sources: readonly SettlementSource[], filesDir: string, day: string): Promise<SettlementDayResult> {
  const ingest = await ingestSettlement(deps, sources, day);
  const files: Omit<WrittenFile, 'path'>[] = [];
  for (const merchantId of await merchantsOfDay(deps.storage, day)) {
    const written = await writeReconciliationFile(deps.storage, filesDir, merchantId, day);
    files.push({ name: `${merchantId}/${written.name}`, lines: written.lines });
  }
  await markDayFinished(deps.storage, day, deps.clock.now());
  return { day, ingest, files };
}
