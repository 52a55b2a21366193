import currencyCodes from 'currency-codes';
import type { EntryKind, Ledger, LedgerEntry } from './ledger.js';

/**
 * The host's daily settlement file, in its own format (one line a record, `|` between fields):
 *
 *   H|ACQHOST-SETTLEMENT|1|<date>|<clearing institute>
 *   D|<record id>|<type>|<status>|<transaction time>|<gateway id>|<rrn>|<stan>|<auth code>|<payment type>|<amount minor>|<currency>|<fee minor>|<result code>|<reason code>
 *   T|<number of D lines>
 *
 * type SETTLED for payments, captures, refunds and credits booked that day and not reversed;
 * CHARGEBACK for the payments of the chargeback card. The batch is the date and the currency.
 */
export const SETTLEMENT_FORMAT = 'ACQHOST-SETTLEMENT';
/** One and a half percent of each settled amount, rounded down. */
const FEE_PER_MILLE = 15n;

const PAYMENT_TYPE: Partial<Record<EntryKind, string>> = { purchase: 'DB', completion: 'CP', refund: 'RF', credit: 'CD' };
/** "Revocation or Dispute", with the scheme's reason "no cardholder authorisation". */
const CHARGEBACK_CODE = '000.100.206';
const CHARGEBACK_REASON = '4837';

export function renderSettlementFile(ledger: Ledger, date: string, clearingInstitute: string): string {
  const lines: string[] = [`H|${SETTLEMENT_FORMAT}|1|${date}|${clearingInstitute}`];
  const entries = ledger.entries().filter((entry) => entry.at.toISOString().slice(0, 10) === date && entry.approved && entry.reversedAt === undefined);
  for (const entry of entries) {
    const type = PAYMENT_TYPE[entry.kind];
    if (!type) continue;
    lines.push(detail(entry, 'SETTLED', type, entry.amountMinor, '', ''));
    if (entry.chargeback) lines.push(detail(entry, 'CHARGEBACK', type, entry.amountMinor, CHARGEBACK_CODE, CHARGEBACK_REASON));
  }
  lines.push(`T|${lines.length - 1}`);
  return `${lines.join('\n')}\n`;
}

function detail(entry: LedgerEntry, type: string, paymentType: string, amountMinor: bigint, resultCode: string, reasonCode: string): string {
  const currency = currencyCodes.number(entry.currencyNumeric)?.code ?? entry.currencyNumeric;
  const fee = type === 'SETTLED' ? (amountMinor * FEE_PER_MILLE) / 1000n : 0n;
  const recordId = `${entry.gatewayTransactionId}-${type === 'SETTLED' ? 'S' : 'CB'}`;
  return ['D', recordId, type, 'SUCCESS', entry.at.toISOString(), entry.gatewayTransactionId, entry.rrn, entry.stan, entry.authCode, paymentType, amountMinor.toString(), currency, fee.toString(), resultCode, reasonCode].join('|');
}
