import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { PaymentType } from '../../domain/transaction.js';
import type { SettlementQuery, SettlementRecord, SettlementRecordType } from '../connector.js';

/** Opens the settlement file of a day as a byte stream (the embedded emulator renders its own). */
export type SettlementFileOpener = (date: string) => Readable | Promise<Readable>;

/**
 * Reads the acquirer host's daily settlement file (format: emulators/acquirer-host/README.md)
 * from a path, an http(s) URL in which `{date}` stands for the day (YYYY-MM-DD), or an opener.
 * Streamed twice in constant memory: first checked whole (header, every line, trailer count), then
 * read for its records, so a truncated or damaged file is refused before any of it is stored.
 * A file that is not on disk is first copied to a temporary file, so both passes read the same bytes.
 */
export async function* readSettlement(source: string | SettlementFileOpener, query: SettlementQuery): AsyncIterable<SettlementRecord> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(query.date)) throw new Error('settlement date must be YYYY-MM-DD');
  const location = typeof source === 'string' ? source.replaceAll('{date}', query.date) : undefined;
  if (location !== undefined && !/^https?:\/\//.test(location)) {
    yield* checkedThenRead(location);
    return;
  }
  const spool = await mkdtemp(join(tmpdir(), 'acquirer-settlement-'));
  try {
    const copy = join(spool, 'settlement.txt');
    await pipeline(location !== undefined ? await fetchStream(location) : await (source as SettlementFileOpener)(query.date), createWriteStream(copy));
    yield* checkedThenRead(copy);
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

async function* checkedThenRead(path: string): AsyncIterable<SettlementRecord> {
  for await (const record of parseSettlementStream(createReadStream(path))) void record;
  yield* parseSettlementStream(createReadStream(path));
}

async function fetchStream(url: string): Promise<Readable> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`settlement file answered HTTP ${response.status}`);
  return Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>);
}

const TYPES: readonly SettlementRecordType[] = ['SETTLED', 'CHARGEBACK', 'CHARGEBACK_REVERSAL', 'FEE'];
const PAYMENT_TYPES: readonly PaymentType[] = ['DB', 'CP', 'RF', 'CD', 'PA', 'RV'];

/**
 * The file's lines one at a time: the header first, then each line is held until the next one
 * comes, because only the end of the file tells which line was the trailer. So a detail is never
 * taken from a last line that was cut short, and memory holds one line whatever the file's size.
 */
class SettlementFileParser {
  #header: { date: string; institute: string } | undefined;
  #held: { text: string; number: number } | undefined;
  #lineNumber = 0;
  #details = 0;

  /** The detail record the line before this one was, if any. */
  push(line: string): SettlementRecord | undefined {
    this.#lineNumber += 1;
    if (line === '') return undefined;
    if (!this.#header) {
      const header = line.split('|');
      if (header[0] !== 'H' || header[1] !== 'ACQHOST-SETTLEMENT') throw new Error('not an ACQHOST-SETTLEMENT file');
      this.#header = { date: header[3] ?? '', institute: header[4] ?? '' };
      return undefined;
    }
    const previous = this.#held;
    this.#held = { text: line, number: this.#lineNumber };
    if (!previous) return undefined;
    this.#details += 1;
    return detailRecord(previous.text.split('|'), this.#header.date, this.#header.institute, previous.number);
  }

  /** The last line must be the trailer and count every detail. */
  end(): void {
    if (!this.#header) throw new Error('not an ACQHOST-SETTLEMENT file');
    const trailer = this.#held?.text.split('|') ?? [];
    if (trailer[0] !== 'T' || Number(trailer[1]) !== this.#details) throw new Error('settlement file trailer does not match its records');
  }
}

/** The records of a file read as a stream; throws at the end when the trailer disagrees. */
export async function* parseSettlementStream(input: Readable): AsyncIterable<SettlementRecord> {
  const parser = new SettlementFileParser();
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      const record = parser.push(line);
      if (record) yield record;
    }
  } finally {
    lines.close();
    input.destroy();
  }
  parser.end();
}

/** The records of a file held as text (tests, small files); the same rules as the stream. */
export function* parseSettlementFile(text: string): Iterable<SettlementRecord> {
  const parser = new SettlementFileParser();
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    const record = parser.push(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (record) yield record;
  }
  parser.end();
}

function detailRecord(cells: readonly string[], date: string, institute: string, lineNumber: number): SettlementRecord {
  const [tag, recordId, type, status, at, , rrn, stan, authCode, paymentType, amount, currency, fee, resultCode, reasonCode] = cells;
  const valid =
    tag === 'D' && cells.length === 15 && TYPES.includes(type as SettlementRecordType) && PAYMENT_TYPES.includes(paymentType as PaymentType) &&
    /^\d+$/.test(amount ?? '') && /^\d+$/.test(fee ?? '') && /^[A-Z]{3}$/.test(currency ?? '') && (status === 'SUCCESS' || status === 'FAILED') && !Number.isNaN(Date.parse(at ?? ''));
  if (!valid) throw new Error(`settlement file line ${lineNumber} is malformed`);
  const references: Record<string, string> = {};
  if (rrn) references['ConnectorTxID1'] = rrn;
  if (stan) references['ConnectorTxID2'] = stan;
  if (authCode) references['ConnectorTxID3'] = authCode;
  return {
    recordId: recordId!,
    type: type as SettlementRecordType,
    status: status as 'SUCCESS' | 'FAILED',
    settlementDate: date,
    transactionDate: new Date(at!),
    clearingInstitute: institute,
    batchId: `${date}-${currency}`,
    paymentType: paymentType as PaymentType,
    amountMinor: BigInt(amount!),
    currency: currency!,
    settlementAmountMinor: BigInt(amount!),
    settlementCurrency: currency!,
    fxRate: '1',
    feeMinor: BigInt(fee!),
    feeCurrency: currency!,
    connectorReferences: references,
    resultCode: resultCode || undefined,
    reasonCode: reasonCode || undefined,
  };
}
