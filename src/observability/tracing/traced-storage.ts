import type { Attributes, Span } from '@opentelemetry/api';
import type { QueryOptions, QueryResult, Queryable, SqlValue, Storage } from '../../storage/port.js';
import { statementAttributes } from './db-attributes.js';
import { claimGroupStatement } from './group-span.js';
import { tracingOn } from './state.js';
import { insideRecordingSpan, SpanKind, withSpan } from './with-span.js';

/**
 * The storage port with a client span per statement and per transaction, on PostgreSQL and PGlite
 * alike. Only statements made inside traced work (a request, a job) get one: the job worker's
 * polling and the sweeps would otherwise fill the trace store with roots of one span each.
 * Without tracing the storage is returned as it is.
 */
export function tracedStorage(storage: Storage): Storage {
  if (!tracingOn) return storage;
  const groupWrites = storage.groupWrites ? tracedStorage(storage.groupWrites) : undefined;
  // Spread first: whatever else the port's adapters offer (pool figures …) stays reachable.
  return {
    ...storage,
    ...(groupWrites ? { groupWrites } : {}),
    query: tracedQuery(storage, storage.kind),
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      if (!insideRecordingSpan()) return storage.transaction(fn);
      const attributes = { 'db.system.name': 'postgresql', 'db.operation.name': 'TRANSACTION', 'gateway.storage.kind': storage.kind };
      return withSpan('transaction', { kind: SpanKind.CLIENT, attributes }, () => storage.transaction((tx) => fn({ query: tracedQuery(tx, storage.kind) })));
    },
  };
}

function tracedQuery(db: Queryable, kind: string): Queryable['query'] {
  return <Row>(sql: string, params?: readonly SqlValue[], options?: QueryOptions): Promise<QueryResult<Row>> => {
    if (!insideRecordingSpan()) return db.query<Row>(sql, params, options);
    const { name, attributes } = statementAttributes(sql, options?.prepareAs, kind);
    const group = claimGroupStatement();
    if (group) return asGroupStatement(group, name, attributes, () => db.query<Row>(sql, params, options));
    return withSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span: Span) => {
      const result = await db.query<Row>(sql, params, options);
      span.setAttribute('db.response.returned_rows', result.rowCount);
      return result;
    });
  };
}

/** The statement of a one-statement group write, on the group's span (named after the statement). */
async function asGroupStatement<Result extends { readonly rowCount: number }>(span: Span, name: string, attributes: Attributes, query: () => Promise<Result>): Promise<Result> {
  span.updateName(name);
  span.setAttributes(attributes);
  const result = await query();
  span.setAttribute('db.response.returned_rows', result.rowCount);
  return result;
}
