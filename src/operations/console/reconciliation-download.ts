import { createReadStream, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Visibility } from '../../domain/access/actor.js';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { merchantFolder, reconciliationFileName } from '../settlement/write-reconciliation-file.js';
import { paymentNotFound } from './load-payment-detail.js';

/** reconciliation-YYYY-MM-DD.csv, as reconciliationFileName names it. */
const FILE_NAME = /^reconciliation-(\d{4}-\d{2}-\d{2})\.csv$/;

export interface ReconciliationDownload {
  readonly name: string;
  readonly bytes: number;
  readonly stream: ReadStream;
}

/**
 * A merchant's reconciliation file of a day, the very file the SFTP server serves, opened to be
 * streamed (memory stays flat whatever its size). A merchant's person reads their merchant's only;
 * another merchant's, a malformed name or a day without a file is the 404 of an unknown payment.
 */
export async function openReconciliationFile(filesDir: string, visibility: Visibility, merchantId: string, fileName: string): Promise<ReconciliationDownload> {
  const day = FILE_NAME.exec(fileName)?.[1];
  if (!ENTITY_ID_PATTERN.test(merchantId) || day === undefined) throw paymentNotFound();
  if (visibility.kind === 'merchant' && visibility.merchantId !== merchantId) throw paymentNotFound();
  const name = reconciliationFileName(day);
  const path = join(merchantFolder(filesDir, merchantId), name);
  const found = await stat(path).catch(() => undefined);
  if (!found?.isFile()) throw paymentNotFound();
  return { name, bytes: found.size, stream: createReadStream(path) };
}
