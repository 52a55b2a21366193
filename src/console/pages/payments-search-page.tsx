import { formatAmount } from '../../domain/money.js';
import { PAYMENT_TYPES, RESULT_GROUPS, STATUSES, type FieldError, type SearchField, type SearchForm, type SortKey, type SortOrder } from '../../domain/payment-search/search-filter.js';
import type { SearchRow } from '../../storage/repositories/payment-search.js';
import type { ConsoleUser } from '../console-user.js';
import { Layout } from './layout.js';

export interface PaymentsSearchPageProps {
  readonly user: ConsoleUser | undefined;
  readonly system: 'test' | 'live';
  readonly csrfToken?: string | undefined;
  readonly form: SearchForm;
  readonly errors: readonly FieldError[];
  readonly rows: readonly SearchRow[];
  readonly next: string | undefined;
  readonly previous: string | undefined;
  /** The person may download the search (payments.export). */
  readonly mayExport: boolean;
}

export const PAYMENTS_PATH = '/console/payments';

/** The search's own query string (the form as typed, a sort, a cursor), for links that keep it. */
export function searchHref(path: string, form: SearchForm, extra: Readonly<Record<string, string>> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...form, ...extra })) if (value) query.set(name, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

interface FieldSpec { readonly name: SearchField; readonly label: string; readonly hint?: string; readonly type?: 'text' | 'email' | 'date'; readonly inputMode?: string; readonly options?: readonly string[] }

const FIELDS: readonly FieldSpec[] = [
  { name: 'id', label: 'Payment id' },
  { name: 'merchantTransactionId', label: 'Merchant transaction id' },
  { name: 'shortId', label: 'Short id', hint: '1234.5678.9012' },
  { name: 'bin', label: 'BIN', inputMode: 'numeric', hint: 'first 6 or 8 digits' },
  { name: 'last4', label: 'Last four', inputMode: 'numeric' },
  { name: 'holder', label: 'Card holder', hint: 'whole name, any case' },
  { name: 'email', label: 'Customer e-mail', type: 'email' },
  { name: 'ip', label: 'Customer IP' },
  { name: 'amountFrom', label: 'Amount from', inputMode: 'decimal', hint: 'e.g. 12.50' },
  { name: 'amountTo', label: 'Amount to', inputMode: 'decimal' },
  { name: 'currency', label: 'Currency', hint: 'EUR' },
  { name: 'brand', label: 'Brand', hint: 'VISA' },
  { name: 'paymentType', label: 'Payment type', options: PAYMENT_TYPES },
  { name: 'result', label: 'Result code or group', hint: `000.100.110 or ${RESULT_GROUPS.join(', ')}` },
  { name: 'status', label: 'Status', options: STATUSES },
  { name: 'channel', label: 'Channel id' },
  { name: 'connector', label: 'Connector' },
  { name: 'from', label: 'Created from', type: 'date', hint: 'UTC' },
  { name: 'to', label: 'Created to', type: 'date', hint: 'UTC, inclusive' },
];

/** The fields shown at first (what support is asked for); the others open under "More filters". */
const FIRST_FIELDS = 6;

function Field({ spec, form, errors }: { spec: FieldSpec; form: SearchForm; errors: readonly FieldError[] }) {
  const id = `f-${spec.name}`;
  const error = errors.find((e) => e.field === spec.name);
  const described = [spec.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = { id, name: spec.name, 'aria-describedby': described, 'aria-invalid': error ? ('true' as const) : undefined };
  return (
    <div class="field">
      <label for={id}>{spec.label}</label>
      {spec.options ? (
        <select {...common}>
          <option value="">Any</option>
          {spec.options.map((o) => <option value={o} selected={form[spec.name] === o}>{o}</option>)}
        </select>
      ) : (
        <input {...({ ...common, type: spec.type ?? 'text', inputMode: spec.inputMode, value: form[spec.name] ?? '', autocomplete: 'off' } as Record<string, unknown>)} />
      )}
      {spec.hint ? <small id={`${id}-hint`} class="hint">{spec.hint}</small> : null}
      {error ? <small id={`${id}-error`} class="field-error">{error.message}</small> : null}
    </div>
  );
}

function SortHeader({ label, sort, form, numeric }: { label: string; sort: SortKey; form: SearchForm; numeric?: boolean }) {
  const current = (form.sort ?? 'created') === sort;
  const order = (form.order ?? 'desc') as SortOrder;
  const nextOrder: SortOrder = current && order === 'desc' ? 'asc' : 'desc';
  const ariaSort = current ? (order === 'desc' ? 'descending' : 'ascending') : undefined;
  const { sort: _s, order: _o, ...rest } = form;
  return (
    <th scope="col" class={numeric ? 'number' : undefined} aria-sort={ariaSort}>
      <a href={searchHref(PAYMENTS_PATH, rest, { sort, order: nextOrder })}>
        {label}
        {current ? <span aria-hidden="true">{order === 'desc' ? ' ↓' : ' ↑'}</span> : null}
        <span class="visually-hidden">{`, sort ${nextOrder === 'desc' ? 'descending' : 'ascending'}`}</span>
      </a>
    </th>
  );
}

function ResultsTable({ rows, form }: { rows: readonly SearchRow[]; form: SearchForm }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Payments found">
      <table class="payments">
        <thead>
          <tr>
            <SortHeader label="Created (UTC)" sort="created" form={form} />
            <th scope="col">Payment</th>
            <th scope="col">Type</th>
            <SortHeader label="Amount" sort="amount" form={form} numeric />
            <th scope="col">Result</th>
            <th scope="col">Card</th>
            <th scope="col">Holder</th>
            <th scope="col">Channel</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td><time dateTime={row.createdAt}>{row.createdAt.slice(0, 19).replace('T', ' ')}</time></td>
              <td><a href={`${PAYMENTS_PATH}/${row.id}`}>{row.shortId}</a>{row.merchantTransactionId ? <div class="muted">{row.merchantTransactionId}</div> : null}</td>
              <td>{row.paymentType}</td>
              <td class="number">{`${formatAmount(row.amountMinor)} ${row.currency}`}</td>
              <td><span class={`status status-${row.status}`}>{row.status}</span> <span class="muted">{row.resultCode}</span></td>
              <td>{row.bin ? `${row.paymentBrand ?? ''} ${row.bin}…${row.last4 ?? ''}`.trim() : row.paymentBrand ?? ''}</td>
              <td>{row.holder ?? ''}</td>
              <td>{row.entityName}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What went wrong, above the form; a message of no field shown (sort, a page link) is said here. */
function ErrorSummary({ errors }: { errors: readonly FieldError[] }) {
  const unplaced = errors.filter((e) => !FIELDS.some((f) => f.name === e.field));
  const placed = errors.length - unplaced.length;
  return (
    <div class="error" role="alert">
      {placed > 0 ? <p>{`Check the ${placed === 1 ? 'field' : 'fields'} marked below.`}</p> : null}
      {unplaced.map((e) => <p>{e.message}</p>)}
    </div>
  );
}

/** GET /console/payments: the search form, one page of payments, links to the pages around it. */
export function PaymentsSearchPage(props: PaymentsSearchPageProps) {
  const { form, errors, rows } = props;
  const { sort, order } = form;
  const keep = { ...(sort ? { sort } : {}), ...(order ? { order } : {}) };
  return (
    <Layout title="Payments" user={props.user} system={props.system} path={PAYMENTS_PATH} csrfToken={props.csrfToken}>
      <form method="get" action={PAYMENTS_PATH} class="search" aria-label="Search payments">
        {errors.length > 0 ? <ErrorSummary errors={errors} /> : null}
        <div class="filters">{FIELDS.slice(0, FIRST_FIELDS).map((spec) => <Field spec={spec} form={form} errors={errors} />)}</div>
        <details class="more-filters" open={FIELDS.slice(FIRST_FIELDS).some((f) => form[f.name] !== undefined || errors.some((e) => e.field === f.name))}>
          <summary>More filters: amount, currency, result, status, channel, dates …</summary>
          <div class="filters">{FIELDS.slice(FIRST_FIELDS).map((spec) => <Field spec={spec} form={form} errors={errors} />)}</div>
        </details>
        {Object.entries(keep).map(([name, value]) => <input type="hidden" name={name} value={value} />)}
        <p class="actions">
          <button type="submit">Search</button> <a class="button secondary" href={PAYMENTS_PATH}>Clear</a>
          {props.mayExport && errors.length === 0 ? <> <a class="button secondary" href={searchHref(`${PAYMENTS_PATH}/export.csv`, form)} download>Download CSV</a></> : null}
        </p>
      </form>
      {errors.length > 0 ? null : rows.length === 0 ? <p>No payment matches this search.</p> : <ResultsTable rows={rows} form={form} />}
      <nav class="pager" aria-label="Pages of results">
        {props.previous ? <a href={searchHref(PAYMENTS_PATH, form, { cursor: props.previous })} rel="prev">← Previous page</a> : null}
        {props.next ? <a href={searchHref(PAYMENTS_PATH, form, { cursor: props.next })} rel="next">Next page →</a> : null}
      </nav>
    </Layout>
  );
}
