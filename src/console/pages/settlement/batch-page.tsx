import type { ComponentChildren } from 'preact';
import { formatAmount } from '../../../domain/money.js';
import type { SettlementBatchPage } from '../../../operations/console/console-settlement.js';
import type { StoredLine } from '../../../storage/repositories/settlement-lines.js';
import type { ConsoleUser } from '../../console-user.js';
import { Layout } from '../layout.js';
import { netOf } from './batches-list-page.js';
import { SETTLEMENT_PATH } from './settlement-filter.js';

export interface BatchPageProps {
  readonly user: ConsoleUser;
  readonly system: 'test' | 'live';
  readonly csrfToken: string | undefined;
  readonly page: SettlementBatchPage;
  /** settlement.download: the link to the merchant's reconciliation file of the day. */
  readonly mayDownload: boolean;
}

/** The merchant's reconciliation file of a settlement day (the one the SFTP server serves). */
export const reconciliationFileHref = (merchantId: string, day: string): string => `${SETTLEMENT_PATH}/files/${merchantId}/reconciliation-${day}.csv`;

const RECORD_TYPES: Readonly<Record<string, string>> = { SETTLED: 'Settled', CHARGEBACK: 'Chargeback', CHARGEBACK_REVERSAL: 'Chargeback reversal', FEE: 'Fee' };

export const recordTypeText = (type: string): string => RECORD_TYPES[type] ?? type;

/** The gateway's payment a record belongs to, linked to its page; an unmatched record has none. */
export function PaymentLink({ id }: { id: string | null }) {
  return id ? <a href={`/console/payments/${id}`}><code>{id}</code></a> : <span class="muted">none</span>;
}

function Facts({ facts }: { facts: ReadonlyArray<readonly [string, ComponentChildren]> }) {
  return <dl class="payment-facts">{facts.map(([term, value]) => <div key={term}><dt>{term}</dt><dd>{value}</dd></div>)}</dl>;
}

function RecordRow({ line }: { line: StoredLine }) {
  return (
    <tr>
      <td>{recordTypeText(line.recordType)}<div class="muted">{line.paymentType}</div></td>
      <td><code>{line.settlementTxId}</code></td>
      <td>{line.matchingStatus === 'MATCHED' ? <PaymentLink id={line.uniqueId} /> : <span class="badge">{line.matchingStatus.toLowerCase().replace('_', ' ')}</span>}
        {line.chargebackId ? <div class="muted">{'gateway transaction '}<a href={`/console/payments/${line.chargebackId}`}><code>{line.chargebackId}</code></a></div> : null}</td>
      <td>{line.brand ?? ''}{line.accountNumberLast4 ? <div class="muted">{`•••• ${line.accountNumberLast4}`}</div> : null}</td>
      <td class="number">{`${formatAmount(line.amountMinor)} ${line.currency}`}</td>
      <td class="number">{`${formatAmount(line.settlementAmountMinor)} ${line.settlementCurrency}`}</td>
      <td class="number">{formatAmount(line.feeMinor)}</td>
      <td>{line.settlementStatus === 'SUCCESS' ? 'success' : 'failed'}{line.reasonCode ? <div class="muted">{`${line.reasonCode} ${line.reasonDescription ?? ''}`}</div> : null}</td>
    </tr>
  );
}

function Pager({ page }: { page: SettlementBatchPage }) {
  if (page.pages <= 1) return null;
  const href = (n: number) => `${SETTLEMENT_PATH}/batches/${page.batch.id}?page=${n}`;
  return (
    <nav class="pager" aria-label="Pages of records">
      {page.pageNo > 1 ? <a href={href(page.pageNo - 1)} rel="prev">← Previous page</a> : null}
      <span class="muted">{`page ${page.pageNo} of ${page.pages}`}</span>
      {page.pageNo < page.pages ? <a href={href(page.pageNo + 1)} rel="next">Next page →</a> : null}
    </nav>
  );
}

/** GET /console/settlement/batches/:id: a batch's totals and its records, matched ones linked to their payments. */
export function BatchPage({ user, system, csrfToken, page, mayDownload }: BatchPageProps) {
  const b = page.batch;
  const money = (minor: bigint) => `${formatAmount(minor)} ${b.currency}`;
  return (
    <Layout title={`Settlement batch ${b.batchId}`} user={user} system={system} path={`${SETTLEMENT_PATH}/batches/${b.id}`} csrfToken={csrfToken}>
      <p><a href={SETTLEMENT_PATH}>← All batches</a></p>
      <Facts facts={[
        ['Settlement day', b.settlementDate], ['Clearing institute', b.clearingInstituteName], ['Merchant', <code>{b.merchantId}</code>],
        ['Records', `${b.records} (${b.failed} failed)`], ['Settled', money(b.settledMinor)], ['Chargebacks', money(b.chargebacksMinor)],
        ['Chargeback reversals', money(b.reversalsMinor)], ['Fees', money(b.feesMinor)], ['Net', <strong>{money(netOf(b))}</strong>],
      ]} />
      {mayDownload ? <p><a class="button secondary" href={reconciliationFileHref(b.merchantId, b.settlementDate)} download>{`Download the reconciliation file of ${b.settlementDate} (CSV)`}</a></p> : null}
      <h2>Records</h2>
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Settlement records">
        <table class="payments settlement-records">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Acquirer record</th>
              <th scope="col">Payment</th>
              <th scope="col">Card</th>
              <th scope="col" class="number">Amount</th>
              <th scope="col" class="number">Settled</th>
              <th scope="col" class="number">Fee</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>{page.lines.map((line) => <RecordRow key={line.rowId} line={line} />)}</tbody>
        </table>
      </div>
      <Pager page={page} />
    </Layout>
  );
}
