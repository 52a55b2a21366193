import type { FastifyInstance, FastifyRequest } from 'fastify';
import { visibilityOf } from '../../domain/access/actor.js';
import { mayPerform } from '../../domain/access/permissions.js';
import { changedParts, type AuditEntry, type ChainVerdict } from '../../domain/audit/audit-entry.js';
import { auditLogCsv, listVisibleAuditEntries, type AuditFilter } from '../../operations/audit/list-audit-log.js';
import { verifyAuditChain } from '../../operations/audit/verify-audit-chain.js';
import type { ConsoleUser } from '../console-user.js';
import { Layout } from '../pages/layout.js';
import { sendPage } from '../render.js';

type Query = Record<string, string | undefined>;

const TEXT_FILTERS = ['action', 'targetKind', 'targetId', 'actor'] as const;
const MAX_FILTER_LENGTH = 128;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filter a person typed, each field trimmed and bounded; a malformed day is named, not guessed. */
export function parseAuditFilter(query: Query): { filter: AuditFilter; errors: Record<string, string> } {
  const filter: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const name of TEXT_FILTERS) {
    const value = query[name]?.trim();
    if (value) filter[name] = value.slice(0, MAX_FILTER_LENGTH);
  }
  for (const [name, key, offsetDays] of [['from', 'from', 0], ['to', 'to', 1]] as const) {
    const value = query[name]?.trim();
    if (!value) continue;
    if (!DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) errors[name] = 'a day as YYYY-MM-DD';
    else filter[key] = new Date(Date.parse(`${value}T00:00:00Z`) + offsetDays * 86_400_000);
  }
  return { filter: filter as AuditFilter, errors };
}

function queryOf(request: FastifyRequest): Query {
  return (request.query ?? {}) as Query;
}

function withCursor(query: Query, cursor: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value && name !== 'cursor') params.set(name, value);
  params.set('cursor', cursor);
  return `/console/audit?${params.toString()}`;
}

function exportHref(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value && name !== 'cursor') params.set(name, value);
  const text = params.toString();
  return `/console/audit/export.csv${text ? `?${text}` : ''}`;
}

function Change({ label, value }: { label: string; value: unknown }) {
  if (value === null || value === undefined) return null;
  return (
    <div>
      <span class="visually-hidden">{label}: </span>
      <code class="json">{JSON.stringify(value)}</code>
    </div>
  );
}

function EntryRow({ entry }: { entry: AuditEntry }) {
  const shown = changedParts(entry.before, entry.after);
  return (
    <tr>
      <td class="number">{entry.seq.toString()}</td>
      <td><time datetime={entry.at.toISOString()}>{entry.at.toISOString().replace('T', ' ').slice(0, 19)}</time></td>
      <td>{entry.actor}{entry.role ? <div class="role">{entry.role}</div> : null}</td>
      <td>{entry.address ?? ''}</td>
      <td>{entry.action}</td>
      <td>{entry.targetKind}<div><code>{entry.targetId}</code></div></td>
      <td class="change"><Change label="Before" value={shown.before} /><Change label="After" value={shown.after} /></td>
    </tr>
  );
}

function FilterForm({ query, errors }: { query: Query; errors: Record<string, string> }) {
  const field = (name: string, label: string, kind: 'text' | 'date' = 'text') => {
    const shared = { id: `audit-${name}`, name, value: query[name] ?? '', 'aria-invalid': errors[name] ? ('true' as const) : undefined, 'aria-describedby': errors[name] ? `audit-${name}-error` : undefined };
    return (
    <div>
      <label for={`audit-${name}`}>{label}</label>
      {kind === 'date' ? <input type="date" {...shared} /> : <input type="text" {...shared} />}
      {errors[name] ? <div id={`audit-${name}-error`} class="field-error">{`Expected ${errors[name]}`}</div> : null}
    </div>
    );
  };
  return (
    <form method="get" action="/console/audit" class="filters" aria-label="Filter the audit log">
      {field('action', 'Action')}
      {field('targetKind', 'Target kind')}
      {field('targetId', 'Target id')}
      {field('actor', 'Actor (e-mail or name)')}
      {field('from', 'From day', 'date')}
      {field('to', 'To day (inclusive)', 'date')}
      <div><button type="submit">Filter</button></div>
    </form>
  );
}

interface AuditPageProps {
  readonly user: ConsoleUser;
  readonly system: 'test' | 'live';
  readonly csrfToken: string | undefined;
  readonly query: Query;
  readonly errors: Record<string, string>;
  readonly entries: readonly AuditEntry[];
  readonly next: string | undefined;
  readonly verdict?: ChainVerdict | undefined;
}

function Verdict({ verdict }: { verdict: ChainVerdict }) {
  return verdict.ok
    ? <p class="notice success" role="status">{`The chain holds: ${verdict.entries} entries verified, head ${verdict.headHash.slice(0, 16)}…`}</p>
    : <p class="notice error" role="alert">{`The chain is broken at entry ${verdict.brokenAt}: ${verdict.reason}`}</p>;
}

export function AuditPage(props: AuditPageProps) {
  const { user, query } = props;
  return (
    <Layout title="Audit log" user={user} system={props.system} path="/console/audit" csrfToken={props.csrfToken}>
      <p>Every change made through the console, the admin API and the command line: who, from where, what, and the values before and after. Entries are chained by hash; an edited or removed entry breaks the chain.</p>
      {props.verdict ? <Verdict verdict={props.verdict} /> : null}
      <FilterForm query={query} errors={props.errors} />
      <p><a class="button secondary" href={exportHref(query)}>Download CSV</a></p>
      {mayPerform(user.role, 'audit.verify') ? (
        <form method="post" action="/console/audit/verify">
          <input type="hidden" name="_csrf" value={props.csrfToken ?? ''} />
          <button type="submit" class="secondary">Verify the chain</button>
        </form>
      ) : null}
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Audit log entries">
        <table>
          <caption class="visually-hidden">Audit log entries, newest first</caption>
          <thead><tr><th class="number" scope="col">#</th><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">From</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Before → after</th></tr></thead>
          <tbody>{props.entries.map((entry) => <EntryRow key={entry.seq.toString()} entry={entry} />)}</tbody>
        </table>
      </div>
      {props.entries.length === 0 ? <p>No entries match.</p> : null}
      {props.next ? <p><a href={withCursor(query, props.next)} rel="next">Older entries</a></p> : null}
    </Layout>
  );
}

async function renderAuditPage(app: FastifyInstance, request: FastifyRequest, verdict?: ChainVerdict) {
  const user = request.consoleUser!;
  const query = verdict ? {} : queryOf(request);
  const { filter, errors } = parseAuditFilter(query);
  const page = Object.keys(errors).length > 0 ? { entries: [], next: undefined } : await listVisibleAuditEntries(app.gateway, visibilityOf(user), filter, query['cursor']);
  return <AuditPage user={user} system={app.gateway.config.system} csrfToken={request.consoleCsrfToken} query={query} errors={errors} entries={page.entries} next={page.next} verdict={verdict} />;
}

/** The audit log: read and filter (audit.view), download as CSV, verify the chain (audit.verify). */
export function registerAuditLogArea(app: FastifyInstance): void {
  app.get('/console/audit', { config: { console: 'audit.view' } }, async (request, reply) => {
    const page = await renderAuditPage(app, request);
    return sendPage(reply, page, Object.keys(parseAuditFilter(queryOf(request)).errors).length > 0 ? 400 : 200);
  });
  app.get('/console/audit/export.csv', { config: { console: 'audit.view' } }, async (request, reply) => {
    const { filter, errors } = parseAuditFilter(queryOf(request));
    if (Object.keys(errors).length > 0) return sendPage(reply, await renderAuditPage(app, request), 400);
    const csv = auditLogCsv(app.gateway, visibilityOf(request.consoleUser!), filter);
    return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="audit-log.csv"').send(csv);
  });
  app.post('/console/audit/verify', { config: { console: 'audit.verify' } }, async (request, reply) =>
    sendPage(reply, await renderAuditPage(app, request, await verifyAuditChain(app.gateway.storage))),
  );
}
