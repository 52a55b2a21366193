import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Visibility } from '../../domain/access/actor.js';
import { formatAmount } from '../../domain/money.js';
import type { PaymentSearch } from '../../domain/payment-search/search-filter.js';
import type { SearchRow } from '../../storage/repositories/payment-search.js';
import { allSearchRows, type SearchDeps } from './search-payments.js';

/**
 * The CSV export's columns, in order (docs/console.md, "Payments"). Card data only as BIN and
 * last four: the gateway has nothing more in clear to give.
 */
export const EXPORT_COLUMNS: ReadonlyArray<readonly [string, (row: SearchRow) => string | null]> = [
  ['id', (r) => r.id],
  ['created_at', (r) => r.createdAt],
  ['entity_id', (r) => r.entityId],
  ['entity_name', (r) => r.entityName],
  ['payment_type', (r) => r.paymentType],
  ['status', (r) => r.status],
  ['result_code', (r) => r.resultCode],
  ['amount', (r) => formatAmount(r.amountMinor)],
  ['currency', (r) => r.currency],
  ['payment_brand', (r) => r.paymentBrand],
  ['bin', (r) => r.bin],
  ['last4', (r) => r.last4],
  ['holder', (r) => r.holder],
  ['customer_email', (r) => r.email],
  ['customer_ip', (r) => r.ip],
  ['merchant_transaction_id', (r) => r.merchantTransactionId],
  ['short_id', (r) => r.shortId],
  ['connector', (r) => r.connectorId],
];

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return, which some
 * read past) as a formula: a holder named `=HYPERLINK(…)` must stay text (OWASP "CSV injection").
 * A leading apostrophe makes it text and shows what was stored.
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

async function* recordsOf(rows: AsyncIterable<SearchRow>): AsyncGenerator<string[]> {
  for await (const row of rows) yield EXPORT_COLUMNS.map(([, read]) => neutraliseFormula(read(row) ?? ''));
}

/**
 * The search as CSV (comma-separated, a header line, RFC 4180 quoting by csv-stringify), read
 * page by page as the reader consumes it: memory stays flat whatever the row count.
 */
export function exportPayments(deps: SearchDeps, visibility: Visibility, search: PaymentSearch): Readable {
  const csv = stringify({ header: true, columns: EXPORT_COLUMNS.map(([name]) => name), record_delimiter: 'unix' });
  // pipeline: an error of the source ends the CSV stream, and a reader that goes away (the
  // download cancelled) ends the source, so no further page is read.
  return pipeline(Readable.from(recordsOf(allSearchRows(deps, visibility, search))), csv, () => undefined);
}
