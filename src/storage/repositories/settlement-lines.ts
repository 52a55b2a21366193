import { reconciliationTransactionId, settlementFileFormat } from '../../domain/settlement/record-identity.js';
import type { ReconciliationLine, ReconciliationRecordType } from '../../domain/settlement/reconciliation-row.js';
import type { Queryable } from '../port.js';

/** A settlement record as the file and the detail report show it, with the merchant's merchantTransactionId and merchantInvoiceId. */
export interface StoredLine extends ReconciliationLine {
  readonly rowId: string;
  readonly aggregationId: string | null;
  /** The merchant's, or generated (domain/settlement/record-identity.ts): always present, as the spec requires. */
  readonly merchantTransactionId: string;
  /** The matched payment's merchantInvoiceId, when the merchant sent one. */
  readonly merchantInvoiceId: string | null;
  /** The connector's reason code (scheme reason), beside the catalogue code. */
  readonly schemeReasonCode: string | null;
}

interface LineRow {
  id: string;
  aggregation_id: string | null;
  connector_id: string;
  record_id: string;
  merchant_id: string;
  record_type: ReconciliationRecordType;
  status: 'SUCCESS' | 'FAILED';
  settlement_date: string;
  transaction_date: Date;
  clearing_institute: string;
  payment_type: string;
  amount_minor: bigint;
  currency: string;
  settlement_amount_minor: bigint;
  settlement_currency: string;
  fx_rate: string;
  fee_minor: bigint;
  connector_references: Record<string, string>;
  merchant_transaction_id: string | null;
  merchant_invoice_id: string | null;
  result_code: string | null;
  reason_code: string | null;
  matching_status: string;
  matched_ids: string[];
  chargeback_id: string | null;
  transaction_id: string | null;
  short_id: string | null;
  payment_brand: string | null;
  descriptor: string | null;
  last4: string | null;
  holder: string | null;
  bank_code: string | null;
  merchant_account_id: string;
  merchant_name: string;
  psp_id: string;
  division_id: string | null;
  ci_merchant_id: string | null;
}

/**
 * One statement for the file and the reports: the record, its matched transaction's shown facts
 * (never more of the card than its last four digits), and the merchant's place in the entity tree.
 * A merchant without a PSP above it is its own PSP (PspId is required).
 */
const LINE_SELECT = `SELECT r.id, r.aggregation_id, r.connector_id, r.record_id, r.merchant_id, r.record_type, r.status,
       to_char(r.settlement_date, 'YYYY-MM-DD') AS settlement_date, r.transaction_date, r.clearing_institute, r.payment_type,
       r.amount_minor, r.currency, r.settlement_amount_minor, r.settlement_currency, r.fx_rate, r.fee_minor, r.connector_references,
       COALESCE(r.merchant_transaction_id, t.merchant_transaction_id) AS merchant_transaction_id,
       t.response ->> 'merchantInvoiceId' AS merchant_invoice_id, r.result_code, r.reason_code,
       r.matching_status, r.matched_ids, r.chargeback_id,
       t.id AS transaction_id, t.short_id, t.payment_brand, t.response ->> 'descriptor' AS descriptor,
       COALESCE(t.response -> 'card' ->> 'last4Digits', right(t.response -> 'bankAccount' ->> 'number', 4)) AS last4,
       COALESCE(t.response -> 'card' ->> 'holder', t.response -> 'bankAccount' ->> 'holder') AS holder,
       t.response -> 'bankAccount' ->> 'bankCode' AS bank_code,
       COALESCE(t.route_id, md5(r.connector_id || ':' || r.merchant_id)) AS merchant_account_id,
       m.name AS merchant_name,
       COALESCE(CASE WHEN p.kind = 'psp' THEN p.id ELSE p.parent_id END, m.id) AS psp_id,
       CASE WHEN p.kind = 'division' THEN p.id END AS division_id,
       r.clearing_institute_merchant_id AS ci_merchant_id
  FROM settlement_records r
  JOIN entities m ON m.id = r.merchant_id
  LEFT JOIN entities p ON p.id = m.parent_id
  LEFT JOIN transactions t ON r.matching_status = 'MATCHED' AND t.id = (r.matched_ids[1])::char(32)`;

function toLine(row: LineRow, describe: (code: string) => string | null): StoredLine {
  const refs = row.connector_references;
  return {
    rowId: row.id,
    aggregationId: row.aggregation_id,
    merchantTransactionId: reconciliationTransactionId({ merchantProvided: row.merchant_transaction_id, paymentId: row.transaction_id, recordRowId: row.id }),
    merchantInvoiceId: row.merchant_invoice_id,
    schemeReasonCode: row.reason_code,
    recordType: row.record_type,
    paymentType: row.payment_type,
    transactionType: null,
    clearingInstituteMerchantId: row.ci_merchant_id ?? `${row.connector_id}-${row.merchant_id}`.slice(0, 64),
    merchantAccountId: row.merchant_account_id,
    merchantAccountName: row.connector_id.slice(0, 32),
    pspId: row.psp_id,
    divisionId: row.division_id,
    merchantId: row.merchant_id,
    settlementTxId: row.record_id.slice(0, 64),
    uniqueId: row.transaction_id,
    shortId: row.short_id,
    connectorTxIds: [refs['ConnectorTxID1'] ?? null, refs['ConnectorTxID2'] ?? null, refs['ConnectorTxID3'] ?? null],
    amountMinor: BigInt(row.amount_minor),
    currency: row.currency,
    brand: row.payment_brand,
    txRequestTime: row.transaction_date,
    settlementAmountMinor: BigInt(row.settlement_amount_minor),
    settlementCurrency: row.settlement_currency,
    feeMinor: BigInt(row.fee_minor),
    fxRate: row.fx_rate,
    settlementDate: row.settlement_date,
    settlementStatus: row.status,
    descriptor: row.descriptor,
    accountNumberLast4: row.last4,
    bankCode: row.bank_code,
    accountHolder: row.holder,
    reasonCode: row.result_code,
    reasonDescription: row.result_code === null ? null : describe(row.result_code),
    fileFormat: settlementFileFormat(row.connector_id),
    clearingInstituteName: row.clearing_institute,
    matchingStatus: row.matching_status,
    matchedIds: row.matched_ids,
    chargebackId: row.chargeback_id,
  };
}

export type Describe = (code: string) => string | null;

/** A merchant's lines of a settlement day after `afterId`, in id order: the file reads them page by page. */
export async function merchantDayLines(db: Queryable, merchantId: string, day: string, afterId: string, limit: number, describe: Describe): Promise<StoredLine[]> {
  const { rows } = await db.query<LineRow>(
    `${LINE_SELECT} WHERE r.merchant_id = $1 AND r.settlement_date = $2::date AND r.id > $3 ORDER BY r.id LIMIT $4`,
    [merchantId, day, afterId, limit],
  );
  return rows.map((row) => toLine(row, describe));
}

export interface LinePage {
  readonly aggregationId: string;
  /** Sorted by transaction date (sortValue=SettlementTxDate), else in the order they were ingested. */
  readonly byTransactionDate: boolean;
  readonly descending: boolean;
  readonly offset: number;
  readonly limit: number;
}

/** The lines of one aggregation, one page of them. */
export async function aggregationLines(db: Queryable, page: LinePage, describe: Describe): Promise<StoredLine[]> {
  const direction = page.descending ? 'DESC' : 'ASC';
  const order = page.byTransactionDate ? `r.transaction_date ${direction}, r.id ${direction}` : `r.id ${direction}`;
  const { rows } = await db.query<LineRow>(`${LINE_SELECT} WHERE r.aggregation_id = $1 ORDER BY ${order} OFFSET $2 LIMIT $3`, [page.aggregationId, page.offset, page.limit]);
  return rows.map((row) => toLine(row, describe));
}

export interface ChargebackLineFilter {
  /** One merchant's; null: every merchant's (operators). */
  readonly merchantId: string | null;
  readonly from: string;
  readonly to: string;
  /** One settlement currency's; undefined: every currency's. */
  readonly currency: string | undefined;
  readonly limit: number;
}

/** Chargebacks and their reversals settled from..to (inclusive), newest settlement day first. */
export async function chargebackLines(db: Queryable, filter: ChargebackLineFilter, describe: Describe): Promise<StoredLine[]> {
  const { rows } = await db.query<LineRow>(
    `${LINE_SELECT} WHERE r.record_type IN ('CHARGEBACK', 'CHARGEBACK_REVERSAL') AND ($1::char(32) IS NULL OR r.merchant_id = $1)
        AND r.settlement_date >= $2::date AND r.settlement_date <= $3::date AND ($5::text IS NULL OR r.settlement_currency = $5)
      ORDER BY r.settlement_date DESC, r.transaction_date DESC, r.id DESC LIMIT $4`,
    [filter.merchantId, filter.from, filter.to, filter.limit, filter.currency ?? null],
  );
  return rows.map((row) => toLine(row, describe));
}

/** The merchants with lines on a settlement day: the daily job writes a file for each. */
export async function merchantsOfDay(db: Queryable, day: string): Promise<string[]> {
  const { rows } = await db.query<{ merchant_id: string }>(
    'SELECT DISTINCT merchant_id FROM settlement_aggregations WHERE settlement_date = $1::date ORDER BY merchant_id',
    [day],
  );
  return rows.map((r) => r.merchant_id);
}
