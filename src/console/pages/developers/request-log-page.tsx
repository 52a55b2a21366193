import { REQUEST_METHODS, type RequestLogQuery } from '../../../domain/request-log-filter.js';
import { resultCodes } from '../../../results/catalogue.js';
import type { StoredApiRequest } from '../../../storage/repositories/api-request-log.js';
import { DeveloperLayout, formatTime, type PageFrame, TableWrap } from './developer-request.js';

export const REQUESTS = '/console/developers/requests';

export interface RequestLogPageProps {
  readonly frame: PageFrame;
  readonly query: RequestLogQuery;
  /** A merchant's person picks among their entities; an operator types an entity id. */
  readonly entities: readonly { id: string; name: string; kind: string }[] | undefined;
  readonly errors: Readonly<Record<string, string>>;
  readonly requests: readonly StoredApiRequest[];
  /** The href of the next (older) page. */
  readonly olderHref: string | undefined;
}

function Field({ name, label, value, errors, hint }: { name: keyof RequestLogQuery; label: string; value: string; errors: Readonly<Record<string, string>>; hint?: string }) {
  const error = errors[name];
  return (
    <div>
      <label for={`f-${name}`}>{label}</label>
      <input id={`f-${name}`} name={name} value={value} placeholder={hint} aria-invalid={error ? 'true' : undefined} aria-describedby={error ? `e-${name}` : undefined} />
      {error ? <p id={`e-${name}`} class="field-error">{error}</p> : null}
    </div>
  );
}

function FilterForm({ query, entities, errors }: Pick<RequestLogPageProps, 'query' | 'entities' | 'errors'>) {
  return (
    <form method="get" action={REQUESTS} class="filters" aria-label="Filter requests">
      {entities ? (
        <div>
          <label for="f-entity">Entity</label>
          <select id="f-entity" name="entity">
            <option value="">All</option>
            {entities.map((e) => <option key={e.id} value={e.id} selected={e.id === query.entity}>{`${e.name} (${e.kind})`}</option>)}
          </select>
        </div>
      ) : <Field name="entity" label="Entity id" value={query.entity} errors={errors} />}
      <div>
        <label for="f-method">Method</label>
        <select id="f-method" name="method">
          <option value="">Any</option>
          {REQUEST_METHODS.map((m) => <option key={m} value={m} selected={m === query.method}>{m}</option>)}
        </select>
        {errors['method'] ? <p class="field-error">{errors['method']}</p> : null}
      </div>
      <Field name="path" label="Path contains" value={query.path} errors={errors} hint="/v1/payments" />
      <Field name="status" label="Status" value={query.status} errors={errors} hint="400 or 4xx" />
      <Field name="resultCode" label="Result code" value={query.resultCode} errors={errors} hint="800.100.151" />
      <Field name="from" label="From (UTC)" value={query.from} errors={errors} hint="2026-11-27" />
      <Field name="to" label="To (UTC)" value={query.to} errors={errors} hint="2026-11-27T18:00" />
      <div class="filter-actions"><button type="submit">Filter</button> <a href={REQUESTS}>Clear</a></div>
    </form>
  );
}

function ResultCell({ code }: { code: string | null }) {
  if (code === null) return <td data-label="Result">—</td>;
  return <td data-label="Result"><code>{code}</code><br /><span class="role">{resultCodes.get(code)?.description ?? 'not in the result catalogue'}</span></td>;
}

function RequestTable({ requests }: { requests: readonly StoredApiRequest[] }) {
  if (requests.length === 0) return <p>No request matches.</p>;
  return (
    <TableWrap label="API requests">
      <table>
        <caption class="visually-hidden">API requests, newest first</caption>
        <thead><tr><th scope="col">Time</th><th scope="col">Request</th><th scope="col">Status</th><th scope="col">Result</th><th scope="col" class="number">Duration</th><th scope="col">Payment</th></tr></thead>
        <tbody>
          {requests.map((r) => (
            <tr key={String(r.id)}>
              <td data-label="Time">{formatTime(r.at)}</td>
              <td data-label="Request"><code>{r.method}</code> <span class="wrap">{r.path}</span><br /><span class="role">entity {r.entityId.slice(0, 8)}… · request {r.requestId}</span></td>
              <td data-label="Status" class={r.status >= 400 ? 'error' : undefined}>{r.status}</td>
              <ResultCell code={r.resultCode} />
              <td data-label="Duration" class="number">{r.durationMs} ms</td>
              <td data-label="Payment">{r.transactionId ? <a href={`/console/payments/${r.transactionId}`}>{`${r.transactionId.slice(0, 8)}…`}</a> : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** The merchant's recent API requests: what was asked, how it was answered, and why (the result code's description). */
export function RequestLogPage(props: RequestLogPageProps) {
  const hasErrors = Object.keys(props.errors).length > 0;
  // Collapsed unless a filter is refused, so the requests come first, at 375 px too.
  const active = Object.values(props.query).filter((value) => value !== '').length;
  return (
    <DeveloperLayout frame={props.frame} title="Request log">
      <p><a href="/console/developers">Developers</a></p>
      <p>API requests the gateway accepted from the merchant's credentials, newest first (no bodies; card-number-like digits in paths masked).</p>
      {hasErrors ? <p class="notice" role="alert">Some filters are not valid: see the fields below.</p> : null}
      <details class="filter-box" open={hasErrors}>
        <summary>{active > 0 ? `Filters (${active} in use)` : 'Filters'}</summary>
        <FilterForm query={props.query} entities={props.entities} errors={props.errors} />
      </details>
      {hasErrors ? null : <RequestTable requests={props.requests} />}
      {props.olderHref ? <p><a href={props.olderHref}>Older requests</a></p> : null}
    </DeveloperLayout>
  );
}
