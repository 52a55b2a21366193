import { formatAmount } from '../../../domain/money.js';
import type { SettlementFilter } from '../../../operations/console/console-settlement.js';
import type { AggregationTotals } from '../../../storage/repositories/settlement-aggregations.js';
import { Layout } from '../layout.js';
import { SETTLEMENT_PATH, FilterRefusal, SettlementFilterForm, SettlementTabs, type SettlementListProps } from './settlement-filter.js';

export interface BatchesListPageProps extends SettlementListProps {
  readonly filter: SettlementFilter | undefined;
  readonly rows: readonly AggregationTotals[];
}

/** What the merchant is paid for a batch: settled, less chargebacks, plus reversals, less fees (the report's netAmount). */
export const netOf = (b: AggregationTotals): bigint => b.settledMinor - b.chargebacksMinor + b.reversalsMinor - b.feesMinor;

function BatchRows({ rows, showMerchant }: { rows: readonly AggregationTotals[]; showMerchant: boolean }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Settlement batches">
      <table class="payments settlement">
        <thead>
          <tr>
            <th scope="col">Settlement day</th>
            <th scope="col">Batch</th>
            {showMerchant ? <th scope="col">Merchant</th> : null}
            <th scope="col" class="number">Records</th>
            <th scope="col" class="number">Settled</th>
            <th scope="col" class="number">Chargebacks</th>
            <th scope="col" class="number">Fees</th>
            <th scope="col" class="number">Net</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((b) => (
            <tr key={b.id}>
              <td>{b.settlementDate}</td>
              <td><a href={`${SETTLEMENT_PATH}/batches/${b.id}`}>{b.batchId}</a><div class="muted">{b.clearingInstituteName}</div></td>
              {showMerchant ? <td><code>{b.merchantId}</code></td> : null}
              <td class="number">{b.records}{b.failed > 0 ? <div class="muted">{`${b.failed} failed`}</div> : null}</td>
              <td class="number">{`${formatAmount(b.settledMinor)} ${b.currency}`}</td>
              <td class="number">{formatAmount(b.chargebacksMinor)}{b.reversalsMinor > 0n ? <div class="muted">{`reversed ${formatAmount(b.reversalsMinor)}`}</div> : null}</td>
              <td class="number">{formatAmount(b.feesMinor)}</td>
              <td class="number"><strong>{`${formatAmount(netOf(b))} ${b.currency}`}</strong></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** GET /console/settlement: the settlement batches (per day, acquirer batch and currency) the person may see. */
export function BatchesListPage(props: BatchesListPageProps) {
  return (
    <Layout title="Settlement" user={props.user} system={props.system} path={SETTLEMENT_PATH} csrfToken={props.csrfToken}>
      <SettlementTabs current="batches" role={props.user.role} />
      <FilterRefusal error={props.error} mayChooseMerchant={props.mayChooseMerchant} />
      <SettlementFilterForm action={SETTLEMENT_PATH} label="Filter settlement batches" form={props.form} error={props.error} mayChooseMerchant={props.mayChooseMerchant} />
      {props.filter ? <p class="muted">{`Settlement days ${props.filter.from} to ${props.filter.to}, newest first.`}</p> : null}
      {props.error ? null : props.rows.length === 0 ? <p>No settlement batch in these days.</p> : <BatchRows rows={props.rows} showMerchant={props.mayChooseMerchant} />}
      {props.rows.length >= props.limit ? <p class="muted">{`The first ${props.limit} are shown: choose fewer days or a merchant to see others.`}</p> : null}
    </Layout>
  );
}
