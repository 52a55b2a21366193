import type { OverviewForm } from '../../../domain/overview/overview-period.js';
import type { DeclineRow } from '../../../domain/overview/overview-figures.js';
import { formatAmount } from '../../../domain/money.js';
import type { Overview } from '../../../operations/overview/load-overview.js';
import type { ConsoleUser } from '../../console-user.js';
import { Layout } from '../layout.js';
import { ChartTable, percent, whole } from './chart-table.js';
import { PeriodForm, type FormError } from './period-form.js';

export const OVERVIEW_PATH = '/console/overview';

const GROUP_TITLES: Readonly<Record<string, string>> = {
  declined: 'Declined by bank or acquirer', validation: 'Refused by validation', risk: 'Refused by risk', three_d_secure: '3-D Secure failed',
  error: 'Errors (communication, system)', success: 'Success', pending: 'Pending',
};

export interface OverviewPageProps {
  readonly user: ConsoleUser;
  readonly system: 'test' | 'live';
  readonly csrfToken: string | undefined;
  readonly form: OverviewForm;
  readonly errors: readonly FormError[];
  /** What the period covers, in words (e.g. "2026-11-21 to 2026-11-27, UTC days"). */
  readonly periodText: string | undefined;
  readonly overview: Overview | undefined;
}

function Tiles({ overview }: { overview: Overview }) {
  const f = overview.figures;
  const tds = f.threeDSecure;
  const tiles: [string, string][] = [
    ['Approval rate', `${percent(f.approvalRate)} (${whole(f.approved)} of ${whole(f.approved + f.declined)})`],
    ['Chargeback ratio', `${percent(f.chargebackRatio)} (${whole(f.chargebacks)})`],
    ['3-D Secure frictionless', percent(tds.attempted === 0 ? null : tds.frictionless / tds.attempted)],
    ['3-D Secure challenge', percent(tds.attempted === 0 ? null : tds.challenge / tds.attempted)],
    ['3-D Secure failed', percent(tds.attempted === 0 ? null : tds.failed / tds.attempted)],
    ['Pending now', `${whole(overview.backlog.count)}${overview.backlog.oldest ? `, oldest ${overview.backlog.oldest.toISOString().slice(0, 16).replace('T', ' ')} UTC` : ''}`],
  ];
  return (
    <dl class="overview-tiles">
      {tiles.map(([label, value]) => <div><dt>{label}</dt><dd>{value}</dd></div>)}
    </dl>
  );
}

/** Decided and declined per key; `byRate` charts the decline rate itself (the table has both). */
function declinePanel(id: string, title: string, column: string, rows: readonly DeclineRow[], name: (key: string) => string, byRate = false) {
  const labels = rows.map((r) => name(r.key));
  return (
    <ChartTable
      id={id}
      title={title}
      empty="No payments decided in this period."
      chart={byRate
        ? { kind: 'bar', labels, percent: true, series: [{ label: 'Decline rate (%)', values: rows.map((r) => Math.round((r.rate ?? 0) * 1000) / 10) }] }
        : { kind: 'bar', labels, series: [{ label: 'Approved', values: rows.map((r) => r.decided - r.declined) }, { label: 'Declined', values: rows.map((r) => r.declined) }] }}
      table={{
        columns: [{ label: column }, { label: 'Decided', numeric: true }, { label: 'Declined', numeric: true }, { label: 'Decline rate', numeric: true }],
        rows: rows.map((r) => [name(r.key), whole(r.decided), whole(r.declined), percent(r.rate)]),
      }}
    />
  );
}

function Figures({ overview }: { overview: Overview }) {
  const f = overview.figures;
  const nameOf = (id: string): string => overview.names.get(id) ?? id;
  const tds = f.threeDSecure;
  return (
    <>
      <Tiles overview={overview} />
      <ChartTable
        id="currencies"
        title="Volume by currency"
        empty="No payments in this period."
        chart={{ kind: 'bar', sideBySide: true, labels: f.byCurrency.map((r) => r.currency), series: [{ label: 'Approved payments', values: f.byCurrency.map((r) => r.approved) }, { label: 'Refunds', values: f.byCurrency.map((r) => r.refunds) }, { label: 'Chargebacks', values: f.byCurrency.map((r) => r.chargebacks) }] }}
        table={{
          columns: [{ label: 'Currency' }, { label: 'Payments', numeric: true }, { label: 'Approved', numeric: true }, { label: 'Approved volume', numeric: true }, { label: 'Refunds', numeric: true }, { label: 'Refunded', numeric: true }, { label: 'Chargebacks', numeric: true }, { label: 'Charged back', numeric: true }],
          rows: f.byCurrency.map((r) => [r.currency, whole(r.payments), whole(r.approved), formatAmount(r.approvedMinor), whole(r.refunds), formatAmount(r.refundedMinor), whole(r.chargebacks), formatAmount(r.chargebackMinor)]),
        }}
      />
      <ChartTable
        id="reasons"
        title="Declines by reason"
        empty="No declines in this period."
        chart={{ kind: 'bar', labels: f.declinesByGroup.map((r) => GROUP_TITLES[r.group] ?? r.group), series: [{ label: 'Declines', values: f.declinesByGroup.map((r) => r.count) }] }}
        table={{ columns: [{ label: 'Reason group' }, { label: 'Declines', numeric: true }, { label: 'Share', numeric: true }], rows: f.declinesByGroup.map((r) => [GROUP_TITLES[r.group] ?? r.group, whole(r.count), percent(f.declined === 0 ? null : r.count / f.declined)]) }}
      />
      {declinePanel('brands', 'By brand', 'Brand', f.byBrand, (key) => key)}
      {declinePanel('channels', 'By channel', 'Channel', f.byChannel, nameOf)}
      {declinePanel('connectors', 'By connector', 'Connector', f.byConnector, (key) => key)}
      <ChartTable
        id="three-d-secure"
        title="3-D Secure"
        empty="No payment was authenticated in this period."
        chart={{ kind: 'doughnut', labels: ['Frictionless', 'Challenge', 'Failed'], series: [{ label: 'Authentications', values: [tds.frictionless, tds.challenge, tds.failed] }] }}
        table={{
          columns: [{ label: 'Flow' }, { label: 'Payments', numeric: true }, { label: 'Rate', numeric: true }],
          rows: tds.attempted === 0 ? [] : ([['Frictionless', tds.frictionless], ['Challenge', tds.challenge], ['Failed', tds.failed]] as const).map(([label, n]) => [label, whole(n), percent(n / tds.attempted)]),
        }}
      />
      {overview.top ? (
        <>
          {declinePanel('top-volume', 'Top merchants by approved payments', 'Merchant', overview.top.byVolume, nameOf)}
          {declinePanel('top-declines', 'Top merchants by decline rate', 'Merchant', overview.top.byDeclineRate, nameOf, true)}
        </>
      ) : null}
    </>
  );
}

/** The overview (areas/overview.tsx): the period form, then each figure as a chart and its table. */
export function OverviewPage(props: OverviewPageProps) {
  return (
    <Layout title="Overview" user={props.user} system={props.system} path={OVERVIEW_PATH} csrfToken={props.csrfToken} scripts={['chart.js', 'overview.js']}>
      <PeriodForm form={props.form} errors={props.errors} merchants={props.overview?.merchants} operator={props.user.merchantId === null} />
      {props.periodText ? <p class="muted" id="period-text">{props.periodText}</p> : null}
      {props.overview ? <Figures overview={props.overview} /> : null}
    </Layout>
  );
}
