import { markDayFinished } from '../../storage/repositories/settlement-days.js';
import { merchantsOfDay } from '../../storage/repositories/settlement-lines.js';
import type { OperationDeps } from '../deps.js';
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

/**
 * One settlement day end to end: ingest every source, then write each merchant's reconciliation
 * file of the day (and push it to the merchant's own server when it has one), then note the day
 * as done. Every step may run again: ingest changes nothing the second time and a file is
 * replaced by the same file.
 */
export async function runSettlementDay(deps: OperationDeps, sources: readonly SettlementSource[], filesDir: string, day: string, push?: PushFile): Promise<SettlementDayResult> {
  const ingest = await ingestSettlement(deps, sources, day);
  const files: SettlementDayResult['files'][number][] = [];
  for (const merchantId of await merchantsOfDay(deps.storage, day)) {
    const written = await writeReconciliationFile(deps.storage, filesDir, merchantId, day);
    files.push({ name: `${merchantId}/${written.name}`, lines: written.lines, ...(await pushed(push, merchantId, written.path)) });
  }
  await markDayFinished(deps.storage, day, deps.clock.now());
  return { day, ingest, files };
}
