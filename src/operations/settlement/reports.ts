import { formatAmount } from '../../domain/money.js';
import { cashflowOf, formatDateTime, transactionTypeOf } from '../../domain/settlement/reconciliation-row.js';
import { GatewayError } from '../../results/gateway-error.js';
import { resultCodes } from '../../results/catalogue.js';
import { findAggregation, listAggregations, type AggregationTotals } from '../../storage/repositories/settlement-aggregations.js';
import { aggregationLines, type StoredLine } from '../../storage/repositories/settlement-lines.js';
import type { StaleReads } from '../../storage/port.js';

/**
 * The reports read with a bounded staleness (storage/port.ts StaleReads): the settlement run
 * writes them, not the merchant asking, so there is no own write to wait for.
 */
export interface ReportDeps {
  readonly reads: StaleReads;
}

/** Records a page of the paged detail (compatibility reference: 100). */
export const REPORT_PAGE_RECORDS = 100;
/** The unpaged detail answers at most this many records; larger batches are read with the paged detail. */
export const REPORT_UNPAGED_MAX_RECORDS = 10_000;

export const describeCode = (code: string): string | null => resultCodes.get(code)?.description ?? null;

function aggregationView(a: AggregationTotals): Record<string, unknown> {
  const net = a.settledMinor - a.chargebacksMinor + a.reversalsMinor - a.feesMinor;
  return {
    id: a.id,
    merchantEntityId: a.merchantId,
    batchId: a.batchId,
    settlementDate: a.settlementDate,
    currency: a.currency,
    clearingInstituteName: a.clearingInstituteName,
    numberOfRecords: a.records,
    numberOfFailedRecords: a.failed,
    totals: {
      settledAmount: formatAmount(a.settledMinor),
      chargebackAmount: formatAmount(a.chargebacksMinor),
      chargebackReversalAmount: formatAmount(a.reversalsMinor),
      feeAmount: formatAmount(a.feesMinor),
      netAmount: formatAmount(net),
    },
  };
}

/** A record in the API's names (the spec's column table: recordType, settlement.amount …). */
export function lineView(line: StoredLine): Record<string, unknown> {
  const transactionType = transactionTypeOf(line.paymentType, line.transactionType);
  const [txId1, txId2, txId3] = line.connectorTxIds;
  const chargeback = line.recordType === 'CHARGEBACK' || line.recordType === 'CHARGEBACK_REVERSAL';
  return {
    recordType: line.recordType.replace('_', ' '),
    transactionType,
    settlement: {
      id: line.settlementTxId, cashflow: cashflowOf(line.recordType, transactionType), amount: formatAmount(line.settlementAmountMinor),
      currency: line.settlementCurrency, fee: formatAmount(line.feeMinor), fxRate: line.fxRate, date: line.settlementDate,
      status: line.settlementStatus, format: line.fileFormat,
    },
    clearingInstitute: { name: line.clearingInstituteName, merchantId: line.clearingInstituteMerchantId, ...(txId1 ? { txId1 } : {}), ...(txId2 ? { txId2 } : {}), ...(txId3 ? { txId3 } : {}) },
    merchantAccount: { id: line.merchantAccountId, ...(line.merchantAccountName ? { name: line.merchantAccountName } : {}) },
    pspEntityId: line.pspId,
    ...(line.divisionId ? { divisionEntityId: line.divisionId } : {}),
    merchantEntityId: line.merchantId,
    ...(line.uniqueId ? { payment: { id: line.uniqueId } } : {}),
    ...(line.shortId ? { shortId: line.shortId } : {}),
    merchantTransactionId: line.merchantTransactionId,
    ...(line.merchantInvoiceId ? { merchantInvoiceId: line.merchantInvoiceId } : {}),
    amount: formatAmount(line.amountMinor),
    currency: line.currency,
    ...(line.brand ? { paymentBrand: line.brand } : {}),
    presentmentDate: formatDateTime(line.txRequestTime),
    ...(line.descriptor ? { descriptor: line.descriptor } : {}),
    ...(line.accountNumberLast4 ? { card: { last4Digits: line.accountNumberLast4, ...(line.accountHolder ? { holder: line.accountHolder } : {}) } } : {}),
    ...(chargeback && line.reasonCode ? { result: { code: line.reasonCode, description: line.reasonDescription ?? '' } } : {}),
    matchedTransactions: { status: line.matchingStatus, payment: line.matchedIds.map((id) => ({ id })) },
    ...(line.chargebackId ? { chargebackTransaction: { id: line.chargebackId } } : {}),
  };
}

export async function settlementSummary(deps: ReportDeps, entityId: string, filter: { from: string; to: string; currency?: string | undefined }): Promise<Record<string, unknown>[]> {
  return (await listAggregations(deps.reads.tolerant(), entityId, filter)).map(aggregationView);
}

export interface DetailRequest {
  readonly aggregationId: string;
  readonly sortByTransactionDate: boolean;
  readonly descending: boolean;
  /** 1-based; absent: every record (up to REPORT_UNPAGED_MAX_RECORDS). */
  readonly pageNo?: number | undefined;
}

/** One aggregation with its records (or one page of them); 700.400.580-like "not found" when the entity may not see it. */
export async function settlementDetail(deps: ReportDeps, entityId: string, request: DetailRequest): Promise<Record<string, unknown>> {
  const db = deps.reads.tolerant();
  const aggregation = await findAggregation(db, entityId, request.aggregationId);
  if (!aggregation) throw new GatewayError('700.400.580', { httpStatus: 404 });
  const paged = request.pageNo !== undefined;
  const limit = paged ? REPORT_PAGE_RECORDS : REPORT_UNPAGED_MAX_RECORDS;
  const offset = paged ? (request.pageNo! - 1) * REPORT_PAGE_RECORDS : 0;
  const lines = await aggregationLines(db, { aggregationId: aggregation.id, byTransactionDate: request.sortByTransactionDate, descending: request.descending, offset, limit }, describeCode);
  return {
    aggregation: aggregationView(aggregation),
    ...(paged ? { pageNo: request.pageNo, pages: Math.max(1, Math.ceil(aggregation.records / REPORT_PAGE_RECORDS)) } : {}),
    records: lines.map(lineView),
  };
}
