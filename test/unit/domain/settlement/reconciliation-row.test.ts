import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cashflowOf, RECONCILIATION_HEADER, reconciliationFields, type ReconciliationLine } from '../../../../src/domain/settlement/reconciliation-row.js';

const SPEC_HEADER = 'ReconciliationType, PaymentType, Cashflow, ClearingInstituteMerchantId, MerchantAccountId, MerchantAccountName, PspId, DivisionId, MerchantId, SettlementTxId, UniqueID, ShortId, ConnectorTxId1, ConnectorTxId2, ConnectorTxId3, Amount, Currency, Brand, TxRequestTime, SettlementAmount, SettlementCurrency, SettlementFee, SettlementFxRate, SettlementDate, SettlementStatus, Descriptor, AccountNumberLast4, BankCode, AccountHolder, ReasonCode, ReasonDesc, SettlementFileFormat, ClearingInsitituteName, MatchingStatus, MatchedTransactions, ChargebackId';

const line: ReconciliationLine = {
  recordType: 'CHARGEBACK', paymentType: 'DB', transactionType: null, clearingInstituteMerchantId: 'SIM-m', merchantAccountId: 'a'.repeat(32),
  merchantAccountName: 'simulator', pspId: 'p'.repeat(32), divisionId: null, merchantId: 'm'.repeat(32), settlementTxId: 'SIM-CB-1', uniqueId: 'u'.repeat(32),
  shortId: '1234.5678.9012', connectorTxIds: ['SIM-1', '123456', null], amountMinor: 3066n, currency: 'USD', brand: 'VISA',
  txRequestTime: new Date('2026-11-22T10:00:05.123Z'), settlementAmountMinor: 2821n, settlementCurrency: 'EUR', feeMinor: 0n, fxRate: '0.92',
  settlementDate: '2026-11-24', settlementStatus: 'SUCCESS', descriptor: null, accountNumberLast4: '0000', bankCode: null, accountHolder: 'Jane Jones',
  reasonCode: '000.100.222', reasonDescription: 'Transaction Not Recognized By Cardholder', fileFormat: 'simulator-settlement', clearingInstituteName: 'Simulator Acquiring Bank',
  matchingStatus: 'MATCHED', matchedIds: ['u'.repeat(32)], chargebackId: 'c'.repeat(32),
};

describe('the reconciliation file\'s lines', () => {
  it('have the spec\'s 36 columns in its order and spellings (TransactionId and InvoiceId are not in the header)', () => {
    assert.equal(RECONCILIATION_HEADER.join(', '), SPEC_HEADER);
    assert.ok(!RECONCILIATION_HEADER.includes('TransactionId') && !RECONCILIATION_HEADER.includes('InvoiceId'));
  });
  it('format every column as documented', () => {
    const fields = reconciliationFields(line);
    assert.equal(fields.length, RECONCILIATION_HEADER.length);
    const byName = Object.fromEntries(RECONCILIATION_HEADER.map((name, i) => [name, fields[i]]));
    assert.deepEqual(byName, {
      ReconciliationType: 'CHARGEBACK', PaymentType: 'DEBIT', Cashflow: 'NEG', ClearingInstituteMerchantId: 'SIM-m', MerchantAccountId: 'a'.repeat(32),
      MerchantAccountName: 'simulator', PspId: 'p'.repeat(32), DivisionId: '', MerchantId: 'm'.repeat(32), SettlementTxId: 'SIM-CB-1', UniqueID: 'u'.repeat(32),
      ShortId: '1234.5678.9012', ConnectorTxId1: 'SIM-1', ConnectorTxId2: '123456', ConnectorTxId3: '', Amount: '30.66', Currency: 'USD', Brand: 'VISA',
      TxRequestTime: '2026-11-22 10:00:05', SettlementAmount: '28.21', SettlementCurrency: 'EUR', SettlementFee: '0.00', SettlementFxRate: '0.92',
      SettlementDate: '2026-11-24', SettlementStatus: 'SUCCESS', Descriptor: '', AccountNumberLast4: '0000', BankCode: '', AccountHolder: 'Jane Jones',
      ReasonCode: '000.100.222', ReasonDesc: 'Transaction Not Recognized By Cardholder', SettlementFileFormat: 'simulator-settlement',
      ClearingInsitituteName: 'Simulator Acquiring Bank', MatchingStatus: 'MATCHED', MatchedTransactions: 'u'.repeat(32), ChargebackId: 'c'.repeat(32),
    });
  });
  it('leave the reason out of lines that are no chargebacks', () => {
    const fields = reconciliationFields({ ...line, recordType: 'SETTLED' });
    assert.deepEqual([fields[0], fields[29], fields[30]], ['SETTLED', '', '']);
  });
  it('say which way the money went', () => {
    const cases: [Parameters<typeof cashflowOf>[0], string, string][] = [
      ['SETTLED', 'DEBIT', 'POS'], ['SETTLED', 'CREDIT', 'NEG'], ['SETTLED', 'REFUND', 'NEG'], ['CHARGEBACK', 'DEBIT', 'NEG'],
      ['CHARGEBACK_REVERSAL', 'DEBIT', 'POS'], ['FEE', 'BATCH', 'NEG'],
    ];
    for (const [type, transactionType, flow] of cases) assert.equal(cashflowOf(type, transactionType), flow, `${type} ${transactionType}`);
    assert.equal(reconciliationFields({ ...line, recordType: 'CHARGEBACK_REVERSAL' })[0], 'CHARGEBACK REVERSAL');
  });
});
