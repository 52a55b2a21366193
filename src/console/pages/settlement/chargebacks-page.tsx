import { formatAmount } from '../../../domain/money.js';
import type { SettlementFilter } from '../../../operations/console/console-settlement.js';
import type { StoredLine } from '../../../storage/repositories/settlement-lines.js';
import { Layout } from '../layout.js';
import { PaymentLink, recordTypeText } from './batch-page.js';
import { CHARGEBACKS_PATH, SETTLEMENT_PATH, FilterRefusal, SettlementFilterForm, SettlementTabs, type SettlementListProps } from './settlement-filter.js';

export interface ChargebacksPageProps extends SettlementListProps {
  readonly filter: SettlementFilter | undefined;
  readonly rows: readonly StoredLine[];
}

function ChargebackRows({ rows, showMerchant }: { rows: readonly StoredLine[]; showMerchant: boolean }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Chargebacks">
      <table class="payments chargebacks">
        <thead>
          <tr>
            <th scope="col">Settlement day</th>
            <th scope="col">Type</th>
            <th scope="col">Payment</th>
            {showMerchant ? <th scope="col">Merchant</th> : null}
            <th scope="col" class="number">Amount</th>
            <th scope="col" class="number">Fee</th>
            <th scope="col">Reason</th>
            <th scope="col">Gateway transaction</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((line) => (
            <tr key={line.rowId}>
              <td>{line.settlementDate}{line.aggregationId ? <div><a href={`${SETTLEMENT_PATH}/batches/${line.aggregationId}`}>batch</a></div> : null}</td>
              <td>{recordTypeText(line.recordType)}{line.settlementStatus === 'FAILED' ? <div class="muted">failed</div> : null}</td>
              <td><PaymentLink id={line.uniqueId} />{line.accountNumberLast4 ? <div class="muted">{`${line.brand ?? ''} •••• ${line.accountNumberLast4}`}</div> : null}</td>
              {showMerchant ? <td><code>{line.merchantId}</code></td> : null}
              <td class="number">{`${formatAmount(line.settlementAmountMinor)} ${line.settlementCurrency}`}{line.currency !== line.settlementCurrency ? <div class="muted">{`${formatAmount(line.amountMinor)} ${line.currency}`}</div> : null}</td>
              <td class="number">{formatAmount(line.feeMinor)}</td>
              <td>{line.reasonCode ? <><code>{line.reasonCode}</code> {line.reasonDescription ?? ''}</> : ''}{line.schemeReasonCode ? <div class="muted">{`scheme reason ${line.schemeReasonCode}`}</div> : null}</td>
              <td>{line.chargebackId ? <PaymentLink id={line.chargebackId} /> : <span class="muted">{line.matchingStatus.toLowerCase().replace('_', ' ')}</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** GET /console/settlement/chargebacks: chargebacks and their reversals, each with the payment it belongs to. */
export function ChargebacksPage(props: ChargebacksPageProps) {
  return (
    <Layout title="Chargebacks" user={props.user} system={props.system} path={CHARGEBACKS_PATH} csrfToken={props.csrfToken}>
      <SettlementTabs current="chargebacks" role={props.user.role} />
      <FilterRefusal error={props.error} mayChooseMerchant={props.mayChooseMerchant} />
      <SettlementFilterForm action={CHARGEBACKS_PATH} label="Filter chargebacks" form={props.form} error={props.error} mayChooseMerchant={props.mayChooseMerchant} />
      {props.filter ? <p class="muted">{`Settled ${props.filter.from} to ${props.filter.to}, newest first.`}</p> : null}
      {props.error ? null : props.rows.length === 0 ? <p>No chargeback in these days.</p> : <ChargebackRows rows={props.rows} showMerchant={props.mayChooseMerchant} />}
      {props.rows.length >= props.limit ? <p class="muted">{`The first ${props.limit} are shown: choose fewer days or a merchant to see others.`}</p> : null}
    </Layout>
  );
}
