import { formatAmount } from '../money.js';
import { rateWithTwoDecimals } from './money.js';

/**
 * One line of the reconciliation file (spec "Reconciliation file"). The header is the spec's,
 * byte for byte, spellings included (ClearingInsitituteName). The column table also names
 * TransactionId and InvoiceId, which the header does not list: the file keeps the header's 36
 * columns, so that parsers written against the specification read it, and the record's
 * merchantTransactionId (generated where the merchant sent none) and merchantInvoiceId are in the
 * detail report instead (docs/settlement.md).
 */
export const RECONCILIATION_HEADER: readonly string[] = Object.freeze([
  'ReconciliationType', 'PaymentType', 'Cashflow', 'ClearingInstituteMerchantId', 'MerchantAccountId', 'MerchantAccountName',
  'PspId', 'DivisionId', 'MerchantId', 'SettlementTxId', 'UniqueID', 'ShortId', 'ConnectorTxId1', 'ConnectorTxId2',
  'ConnectorTxId3', 'Amount', 'Currency', 'Brand', 'TxRequestTime', 'SettlementAmount', 'SettlementCurrency', 'SettlementFee',
  'SettlementFxRate', 'SettlementDate', 'SettlementStatus', 'Descriptor', 'AccountNumberLast4', 'BankCode', 'AccountHolder',
  'ReasonCode', 'ReasonDesc', 'SettlementFileFormat', 'ClearingInsitituteName', 'MatchingStatus', 'MatchedTransactions', 'ChargebackId',
]);

export type ReconciliationRecordType = 'SETTLED' | 'CHARGEBACK' | 'CHARGEBACK_REVERSAL' | 'FEE';

/** Everything one line shows, gathered from the record, its transaction and the entity tree. */
export interface ReconciliationLine {
  readonly recordType: ReconciliationRecordType;
  readonly paymentType: string;
  readonly transactionType: string | null;
  readonly clearingInstituteMerchantId: string;
  readonly merchantAccountId: string;
  readonly merchantAccountName: string | null;
  readonly pspId: string;
  readonly divisionId: string | null;
  readonly merchantId: string;
  readonly settlementTxId: string;
  readonly uniqueId: string | null;
  readonly shortId: string | null;
  readonly connectorTxIds: readonly [string | null, string | null, string | null];
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly brand: string | null;
  readonly txRequestTime: Date;
  readonly settlementAmountMinor: bigint;
  readonly settlementCurrency: string;
  readonly feeMinor: bigint;
  readonly fxRate: string;
  readonly settlementDate: string;
  readonly settlementStatus: 'SUCCESS' | 'FAILED';
  readonly descriptor: string | null;
  readonly accountNumberLast4: string | null;
  readonly bankCode: string | null;
  readonly accountHolder: string | null;
  readonly reasonCode: string | null;
  readonly reasonDescription: string | null;
  readonly fileFormat: string;
  readonly clearingInstituteName: string;
  readonly matchingStatus: string;
  readonly matchedIds: readonly string[];
  readonly chargebackId: string | null;
}

const FILE_RECORD_TYPES: Readonly<Record<ReconciliationRecordType, string>> = {
  SETTLED: 'SETTLED',
  CHARGEBACK: 'CHARGEBACK',
  CHARGEBACK_REVERSAL: 'CHARGEBACK REVERSAL',
  FEE: 'FEE',
};

/** The gateway's payment type as the file's PaymentType (DEBIT, CREDIT, REFUND). */
const TRANSACTION_TYPES: Readonly<Record<string, string>> = { DB: 'DEBIT', CP: 'DEBIT', PA: 'DEBIT', CD: 'CREDIT', RF: 'REFUND' };

export function transactionTypeOf(paymentType: string, given: string | null): string {
  return given ?? TRANSACTION_TYPES[paymentType] ?? paymentType;
}

/**
 * The balance direction of a line for the merchant: money in (POS) for a settled debit and for a
 * chargeback reversal, money out (NEG) for credits, refunds, chargebacks and fees.
 */
export function cashflowOf(recordType: ReconciliationRecordType, transactionType: string): 'POS' | 'NEG' {
  if (recordType === 'FEE' || recordType === 'CHARGEBACK') return 'NEG';
  if (recordType === 'CHARGEBACK_REVERSAL') return 'POS';
  return transactionType === 'CREDIT' || transactionType === 'REFUND' ? 'NEG' : 'POS';
}

/** yyyy-MM-dd HH:mm:ss in UTC, the simulated clearing institute's time zone. */
export function formatDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** The line's 36 fields in header order; absent values are empty fields. */
export function reconciliationFields(line: ReconciliationLine): string[] {
  const transactionType = transactionTypeOf(line.paymentType, line.transactionType);
  const [tx1, tx2, tx3] = line.connectorTxIds;
  const chargebackLine = line.recordType === 'CHARGEBACK' || line.recordType === 'CHARGEBACK_REVERSAL';
  return [
    FILE_RECORD_TYPES[line.recordType], transactionType, cashflowOf(line.recordType, transactionType), line.clearingInstituteMerchantId,
    line.merchantAccountId, line.merchantAccountName ?? '', line.pspId, line.divisionId ?? '', line.merchantId, line.settlementTxId,
    line.uniqueId ?? '', line.shortId ?? '', tx1 ?? '', tx2 ?? '', tx3 ?? '',
    formatAmount(line.amountMinor), line.currency, line.brand ?? '', formatDateTime(line.txRequestTime),
    formatAmount(line.settlementAmountMinor), line.settlementCurrency, formatAmount(line.feeMinor), rateWithTwoDecimals(line.fxRate),
    line.settlementDate, line.settlementStatus, line.descriptor ?? '', line.accountNumberLast4 ?? '', line.bankCode ?? '', line.accountHolder ?? '',
    chargebackLine ? line.reasonCode ?? '' : '', chargebackLine ? line.reasonDescription ?? '' : '',
    line.fileFormat, line.clearingInstituteName, line.matchingStatus, line.matchedIds.join(','), line.chargebackId ?? '',
  ];
}
