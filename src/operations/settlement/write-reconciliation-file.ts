import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { RECONCILIATION_HEADER, reconciliationFields } from '../../domain/settlement/reconciliation-row.js';
import type { Queryable } from '../../storage/port.js';
import { merchantDayLines } from '../../storage/repositories/settlement-lines.js';
import { describeCode } from './reports.js';

/** Lines read a page: constant memory whatever the size of the merchant's day. */
const PAGE_LINES = 2000;

export interface WrittenFile {
  readonly path: string;
  /** The file's name inside the merchant's folder. */
  readonly name: string;
  readonly lines: number;
}

/** reconciliation-YYYY-MM-DD.csv: the merchant's folder is its own, the day names the file. */
export function reconciliationFileName(day: string): string {
  return `reconciliation-${day}.csv`;
}

/** The folder of a merchant's files; merchant ids are 32 hex digits, never a path of their own. */
export function merchantFolder(filesDir: string, merchantId: string): string {
  if (!/^[0-9a-f]{32}$/.test(merchantId)) throw new Error('not a merchant entity id');
  return join(filesDir, merchantId);
}

async function* fieldsOf(db: Queryable, merchantId: string, day: string, count: { lines: number }): AsyncGenerator<string[]> {
  let after = '';
  for (;;) {
    const page = await merchantDayLines(db, merchantId, day, after, PAGE_LINES, describeCode);
    for (const line of page) yield reconciliationFields(line);
    count.lines += page.length;
    if (page.length < PAGE_LINES) return;
    after = page[page.length - 1]!.rowId;
  }
}

/**
 * Writes a merchant's reconciliation file of a settlement day (spec "Reconciliation file"):
 * semicolon-separated, the spec's header, one line per settlement record, quoted by csv-stringify
 * where a value holds a semicolon, a quote or a line break. Streamed page by page into a temporary
 * file that is renamed into place, so a reader never sees half a file and a run again replaces it.
 */
export async function writeReconciliationFile(db: Queryable, filesDir: string, merchantId: string, day: string): Promise<WrittenFile> {
  const folder = merchantFolder(filesDir, merchantId);
  await mkdir(folder, { recursive: true });
  const name = reconciliationFileName(day);
  const path = join(folder, name);
  const partial = `${path}.partial`;
  const count = { lines: 0 };
  try {
    await pipeline(
      Readable.from(fieldsOf(db, merchantId, day, count)),
      stringify({ delimiter: ';', header: true, columns: [...RECONCILIATION_HEADER], record_delimiter: 'unix' }),
      createWriteStream(partial),
    );
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { path, name, lines: count.lines };
}
