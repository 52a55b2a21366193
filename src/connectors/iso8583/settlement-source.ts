import { readFile } from 'node:fs/promises';
import type { PaymentType } from '../../domain/transaction.js';
import type { SettlementQuery, SettlementRecord, SettlementRecordType } from '../connector.js';

/**
 * Reads the acquirer host's daily settlement file (format: emulators/acquirer-host/README.md)
 * from a path or an http(s) URL in which `{date}` stands for the day (YYYY-MM-DD).
 */
export async function* readSettlement(source: string, query: SettlementQuery): AsyncIterable<SettlementRecord> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(query.date)) throw new Error('settlement date must be YYYY-MM-DD');
  const location = source.replaceAll('{date}', query.date);
  const text = /^https?:\/\//.test(location) ? await fetchText(location) : await readFile(location, 'utf8');
  yield* parseSettlementFile(text);
}

async function fetchText(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`settlement file answered HTTP ${response.status}`);
  return response.text();
}

const TYPES: readonly SettlementRecordType[] = ['SETTLED', 'CHARGEBACK', 'CHARGEBACK_REVERSAL', 'FEE'];
const PAYMENT_TYPES: readonly PaymentType[] = ['DB', 'CP', 'RF', 'CD', 'PA', 'RV'];

/** The file's records; a file without its header or whose trailer count disagrees is refused whole. */
export function* parseSettlementFile(text: string): Iterable<SettlementRecord> {
  const lines = text.split('\n').filter((line) => line !== '');
  const header = lines[0]?.split('|') ?? [];
  if (header[0] !== 'H' || header[1] !== 'ACQHOST-SETTLEMENT') throw new Error('not an ACQHOST-SETTLEMENT file');
  const [, , , date = '', institute = ''] = header;
  const trailer = lines.at(-1)?.split('|') ?? [];
  const details = lines.slice(1, -1);
  if (trailer[0] !== 'T' || Number(trailer[1]) !== details.length) throw new Error('settlement file trailer does not match its records');
  for (const [index, line] of details.entries()) yield detailRecord(line.split('|'), date, institute, index + 2);
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
