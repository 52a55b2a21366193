import { addDays } from '../../../domain/settlement/days.js';
import type { SettlementQuery, SettlementRecord, SettlementRecordType } from '../../connector.js';
import type { SimulatorFlavour } from '../tables.js';
import {
  BATCH_FEE_MINOR,
  CHARGEBACK_DELAY_DAYS,
  chargebackCodeOf,
  DEFAULT_SETTLEMENT_CURRENCY,
  isReversedChargeback,
  isSettled,
  REVERSAL_DELAY_DAYS,
  SETTLEMENT_DELAY_DAYS,
  settledMoney,
  settlementFails,
  type SettleableTransaction,
} from './rules.js';

/**
 * The simulator is stateless: to settle a day it reads the gateway's stored transactions of the
 * days before through this port, which storage implements (never SQL inside a connector).
 */
export interface SettlementTransactionSource {
  /** The successful transactions the connector processed on the UTC day, in id order, streamed. */
  transactionsOf(connectorId: string, day: string): AsyncIterable<SettleableTransaction>;
}

const REFERENCE_KEYS = ['ConnectorTxID1', 'ConnectorTxID2', 'ConnectorTxID3'] as const;

function referencesOf(t: SettleableTransaction): Record<string, string> {
  const references: Record<string, string> = {};
  for (const key of REFERENCE_KEYS) {
    const value = t.connectorReferences[key];
    if (value !== undefined) references[key] = value;
  }
  return references;
}

type RecordOf = (t: SettleableTransaction, type: SettlementRecordType, tag: string, extra?: Partial<SettlementRecord>) => SettlementRecord;

function recordMaker(flavour: SimulatorFlavour, day: string): RecordOf {
  return (t, type, tag, extra = {}) => {
    const money = settledMoney(t, type === 'SETTLED');
    return {
      recordId: `${flavour.referencePrefix}-${tag}-${t.id}`,
      type,
      status: type === 'SETTLED' && settlementFails(t) ? 'FAILED' : 'SUCCESS',
      settlementDate: day,
      transactionDate: t.createdAt,
      clearingInstitute: flavour.clearingInstituteName,
      batchId: `${flavour.referencePrefix}-${day}-${money.settlementCurrency}`,
      paymentType: t.paymentType,
      amountMinor: t.amountMinor,
      currency: t.currency,
      settlementAmountMinor: money.settlementAmountMinor,
      settlementCurrency: money.settlementCurrency,
      fxRate: money.fxRate,
      feeMinor: settlementFails(t) ? 0n : money.feeMinor,
      feeCurrency: money.settlementCurrency,
      connectorReferences: referencesOf(t),
      merchantTransactionId: t.merchantTransactionId ?? undefined,
      merchantEntityId: t.merchantId,
      clearingInstituteMerchantId: `${flavour.referencePrefix}-${t.merchantId}`,
      ...extra,
    };
  };
}

/** One BATCH fee line per merchant and settlement currency that had settled lines. */
function batchFee(flavour: SimulatorFlavour, day: string, merchantId: string, currency: string): SettlementRecord {
  return {
    recordId: `${flavour.referencePrefix}-F-${day}-${merchantId}-${currency}`,
    type: 'FEE',
    status: 'SUCCESS',
    settlementDate: day,
    transactionDate: new Date(`${day}T00:00:00Z`),
    clearingInstitute: flavour.clearingInstituteName,
    batchId: `${flavour.referencePrefix}-${day}-${currency}`,
    paymentType: 'DB',
    transactionType: 'BATCH',
    amountMinor: BATCH_FEE_MINOR,
    currency,
    settlementAmountMinor: BATCH_FEE_MINOR,
    settlementCurrency: currency,
    fxRate: '1',
    feeMinor: BATCH_FEE_MINOR,
    feeCurrency: currency,
    connectorReferences: {},
    merchantEntityId: merchantId,
    clearingInstituteMerchantId: `${flavour.referencePrefix}-${merchantId}`,
  };
}

/**
 * The settlement file the simulated acquirer delivers for `query.date`: the day before's
 * transactions settled (some FAILED), chargebacks of payments two days old, reversals of some of
 * those chargebacks a day later, and a batch fee per merchant (docs/settlement.md).
 */
export async function* simulatedSettlement(flavour: SimulatorFlavour, source: SettlementTransactionSource, query: SettlementQuery): AsyncGenerator<SettlementRecord> {
  const day = query.date;
  const make = recordMaker(flavour, day);
  const batches = new Map<string, { merchantId: string; currency: string }>();
  for await (const t of source.transactionsOf(flavour.connectorId, addDays(day, -SETTLEMENT_DELAY_DAYS))) {
    if (!isSettled(t)) continue;
    const record = make(t, 'SETTLED', 'S');
    if (record.status === 'SUCCESS') batches.set(`${t.merchantId}/${record.settlementCurrency}`, { merchantId: t.merchantId, currency: record.settlementCurrency });
    yield record;
  }
  for await (const t of source.transactionsOf(flavour.connectorId, addDays(day, -CHARGEBACK_DELAY_DAYS))) {
    const code = chargebackCodeOf(t);
    if (code !== null) yield make(t, 'CHARGEBACK', 'CB', { resultCode: code, reasonCode: code.slice(-2) });
  }
  for await (const t of source.transactionsOf(flavour.connectorId, addDays(day, -REVERSAL_DELAY_DAYS))) {
    if (isReversedChargeback(t)) yield make(t, 'CHARGEBACK_REVERSAL', 'CR', { resultCode: chargebackCodeOf(t)!, reasonCode: chargebackCodeOf(t)!.slice(-2) });
  }
  for (const { merchantId, currency } of batches.values()) yield batchFee(flavour, day, merchantId, currency ?? DEFAULT_SETTLEMENT_CURRENCY);
}
