import type { PaymentFilter, PaymentSearch } from '../../domain/payment-search/search-filter.js';
import { searchText } from '../../domain/payment-search/search-terms.js';
import type { SearchCursor } from '../../domain/payment-search/search-cursor.js';
import type { Queryable, SqlValue } from '../port.js';

/**
 * The console's payment search as SQL (migration 048 made it fast; docs/performance.md has the
 * numbers at ten million rows). Every value is a parameter. Conditions the person may not lift,
 * the entities they may see, are part of the same WHERE as their filters.
 */
export interface SearchRow {
  readonly id: string;
  /** created_at to the microsecond, ISO in UTC: the cursor's key, exact. */
  readonly createdAt: string;
  readonly entityId: string;
  readonly entityName: string;
  readonly paymentType: string;
  readonly status: string;
  readonly resultCode: string;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly paymentBrand: string | null;
  readonly merchantTransactionId: string | null;
  readonly shortId: string;
  readonly connectorId: string;
  readonly bin: string | null;
  readonly last4: string | null;
  readonly holder: string | null;
  readonly email: string | null;
  readonly ip: string | null;
}

export interface SearchQuery {
  readonly search: PaymentSearch;
  /** The entities the person may see; null: every entity (operators). */
  readonly entityIds: readonly string[] | null;
  /** The result codes of the filter's result group, when it has one (from the result catalogue). */
  readonly groupCodes: readonly string[] | null;
  readonly cursor: SearchCursor | undefined;
  readonly limit: number;
  /** How the visible entities enter the query (see searchPayments); chosen by the planner's costs when absent. */
  readonly strategy?: EntityStrategy;
}

/**
 * 'any': `entity_id = ANY(visible)` beside the filters, good when a filter is rare (an index on it
 * finds few rows). 'per-entity': the newest rows of each visible entity through its
 * (entity_id, created_at) index, merged, good when the filters are common and the merchant small
 * (a popular BIN in a small merchant: 1.4 s the first way, 10 ms this way at ten million rows).
 */
export type EntityStrategy = 'any' | 'per-entity';

class Conditions {
  readonly params: SqlValue[] = [];
  readonly where: string[] = [];
  readonly terms: string[] = [];
  param(value: SqlValue): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  add(sql: (p: (value: SqlValue) => string) => string): void {
    this.where.push(sql((value) => this.param(value)));
  }
}

function filterConditions(filter: PaymentFilter, c: Conditions): void {
  if (filter.id !== undefined) c.add((p) => `t.id = ${p(filter.id!)}`);
  if (filter.shortId !== undefined) c.add((p) => `t.short_id = ${p(filter.shortId!)}`);
  // Terms of migration 048: one GIN index answers any of them, alone or together. Free text is
  // folded as the stored terms were (domain/payment-search/search-terms.ts).
  const term = (prefix: string, value: string | undefined, fold: (text: string) => string = (text) => text) => {
    if (value !== undefined) c.terms.push(c.param(`${prefix}:${fold(value)}`));
  };
  term('mtid', filter.merchantTransactionId);
  term('bin', filter.bin);
  term('last4', filter.last4);
  term('holder', filter.holder, searchText);
  term('email', filter.email, searchText);
  term('ip', filter.ip, (ip) => ip.toLowerCase());
  term('currency', filter.currency);
  term('brand', filter.brand);
  term('type', filter.paymentType);
  if (filter.amountFromMinor !== undefined) c.add((p) => `t.amount_minor >= ${p(filter.amountFromMinor!)}`);
  if (filter.amountToMinor !== undefined) c.add((p) => `t.amount_minor <= ${p(filter.amountToMinor!)}`);
  if (filter.resultCode !== undefined) c.add((p) => `t.result_code = ${p(filter.resultCode!)}`);
  if (filter.status !== undefined) c.add((p) => `t.status = ${p(filter.status!)}`);
  if (filter.channel !== undefined) c.add((p) => `t.entity_id = ${p(filter.channel!)}`);
  if (filter.connector !== undefined) c.add((p) => `t.connector_id = ${p(filter.connector!)}`);
  if (filter.createdFrom !== undefined) c.add((p) => `t.created_at >= ${p(filter.createdFrom!)}`);
  if (filter.createdBefore !== undefined) c.add((p) => `t.created_at < ${p(filter.createdBefore!)}`);
}

const SORT_COLUMN = { created: 't.created_at', amount: 't.amount_minor' } as const;
const KEY_CAST = { created: 'timestamptz', amount: 'bigint' } as const;

/** The WHERE and ORDER BY of one page; `reversed` when the page is read backwards (a previous page). */
export function searchSql(query: SearchQuery, strategy: EntityStrategy = 'any'): { sql: string; params: SqlValue[]; reversed: boolean } {
  const { search, cursor } = query;
  const c = new Conditions();
  const perEntity = strategy === 'per-entity' && query.entityIds !== null;
  const visible = query.entityIds === null ? '' : c.param(query.entityIds);
  if (query.entityIds !== null) c.where.push(perEntity ? 't.entity_id = v.entity_id' : `t.entity_id = ANY(${visible}::char(32)[])`);
  filterConditions(search.filter, c);
  if (query.groupCodes !== null) c.add((p) => `t.result_code = ANY(${p(query.groupCodes!)}::text[])`);
  if (c.terms.length > 0) c.where.push(`t.search_terms @> ARRAY[${c.terms.join(', ')}]::text[]`);
  const column = SORT_COLUMN[search.sort];
  const reversed = cursor?.direction === 'before';
  const descending = (search.order === 'desc') !== reversed;
  if (cursor) {
    c.add((p) => `(${column}, t.id) ${descending ? '<' : '>'} (${p(cursor.key)}::${KEY_CAST[search.sort]}, ${p(cursor.id)})`);
  }
  const direction = descending ? 'DESC' : 'ASC';
  const order = `ORDER BY ${column} ${direction}, t.id ${direction} LIMIT ${c.param(query.limit)}`;
  const rows = selectRows(c.where, order, readsDecidedIndexes(search, c, query.groupCodes), search.filter.status);
  const sql = perEntity
    ? `SELECT t.* FROM unnest(${visible}::char(32)[]) AS v (entity_id) CROSS JOIN LATERAL (${rows}) AS t ${order}`
    : rows;
  return { sql, params: c.params, reversed };
}

/**
 * Whether the search filters or sorts by what the indexes of migration 062 hold: the terms, the
 * amount, the result code. Those indexes leave out pending rows (a payment's row is entered once,
 * with its outcome), so such a search reads decided rows through them and pending ones apart.
 */
function readsDecidedIndexes(search: PaymentSearch, c: Conditions, groupCodes: readonly string[] | null): boolean {
  const filter = search.filter;
  return c.terms.length > 0 || search.sort === 'amount' || groupCodes !== null ||
    filter.amountFromMinor !== undefined || filter.amountToMinor !== undefined || filter.resultCode !== undefined;
}

// Literal, not a parameter: PostgreSQL uses a partial index only where the query's own text implies its predicate.
const DECIDED = `t.status <> 'pending'`;
const PENDING = `t.status = 'pending'`;
const LONG_PENDING = 't.long_pending';

/**
 * The matching rows in the page's order. Reading the decided indexes, the pending rows come from
 * a second SELECT, merged in order; a status filter other than pending needs no second SELECT,
 * only the words that let the indexes serve.
 */
function selectRows(where: readonly string[], order: string, decidedIndexes: boolean, status: string | undefined): string {
  if (status === 'pending') return pendingRows(where, order);
  if (!decidedIndexes) return select(where, order);
  if (status !== undefined) return select([...where, DECIDED], order);
  return `SELECT t.* FROM ((${select([...where, DECIDED], order)}) UNION ALL (${pendingRows(where, order)})) AS t ${order}`;
}

function select(where: readonly string[], order: string): string {
  return `SELECT t.* FROM transactions t ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ${order}`;
}

/**
 * Pending rows matching the filters, in two parts (migration 064). Rows pending long, which may be
 * many and scattered over months when an acquirer was down, are chosen from
 * transactions_long_pending_search_idx alone: it holds every column a search filters by, so no
 * row that does not match is read (reading each to test its terms took seconds from a cold cache
 * with twenty thousand of them). The young ones, few and recent, are listed first from the narrow
 * index of pending rows, whose long_pending flag skips the others without reading them
 * (MATERIALIZED, so that PostgreSQL cannot turn it into a walk of that index testing each row on
 * the table), and then read and tested. Which part a row is in changes only how fast it is found.
 */
function pendingRows(where: readonly string[], order: string): string {
  const long = `(SELECT t.id FROM transactions t WHERE ${[...where, PENDING, LONG_PENDING].join(' AND ')} ${order})`;
  const young = `(WITH young AS MATERIALIZED (SELECT y.id FROM transactions y WHERE y.status = 'pending' AND NOT y.long_pending)
    SELECT t.id FROM young JOIN transactions t ON t.id = young.id WHERE ${[...where, PENDING, `NOT ${LONG_PENDING}`].join(' AND ')} ${order})`;
  return `SELECT t.* FROM transactions t WHERE t.id IN (${long} UNION ALL ${young}) ${order}`;
}

/** The planner's estimated total cost of a statement (EXPLAIN, not run). */
async function plannedCost(db: Queryable, sql: string, params: readonly SqlValue[]): Promise<number> {
  const { rows } = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const plan = rows[0]?.['QUERY PLAN'];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as [{ Plan: { 'Total Cost': number } }];
  return parsed[0].Plan['Total Cost'];
}

/**
 * Neither form of a merchant's search wins everywhere (EntityStrategy): where it matters (sorted
 * by time, more than one entity, no channel chosen), the planner prices both and the cheaper
 * runs. Two EXPLAINs cost a few milliseconds; the wrong plan costs a second.
 */
async function chooseStrategy(db: Queryable, query: SearchQuery): Promise<EntityStrategy> {
  if (query.strategy) return query.strategy;
  if (query.entityIds === null || query.entityIds.length < 2 || query.search.sort !== 'created' || query.search.filter.channel !== undefined) return 'any';
  const [any, perEntity] = await Promise.all((['any', 'per-entity'] as const).map((strategy) => {
    const { sql, params } = searchSql(query, strategy);
    return plannedCost(db, sql, params);
  }));
  return perEntity! < any! ? 'per-entity' : 'any';
}

// What a row shows; the response is json, read once per row as jsonb.
const ROW_SQL = (inner: string, direction: string, column: string) => `
  SELECT p.id, to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt",
         p.entity_id AS "entityId", e.name AS "entityName", p.payment_type AS "paymentType", p.status, p.result_code AS "resultCode",
         p.amount_minor AS "amountMinor", p.currency, p.payment_brand AS "paymentBrand",
         p.merchant_transaction_id AS "merchantTransactionId", p.short_id AS "shortId", p.connector_id AS "connectorId",
         r.j #>> '{card,bin}' AS bin, r.j #>> '{card,last4Digits}' AS last4, r.j #>> '{card,holder}' AS holder,
         r.j #>> '{customer,email}' AS email, r.j #>> '{customer,ip}' AS ip
    FROM (${inner}) AS p
    JOIN entities e ON e.id = p.entity_id
    CROSS JOIN LATERAL (SELECT p.response::jsonb AS j) AS r
   ORDER BY ${column.replace('t.', 'p.')} ${direction}, p.id ${direction}`;

/** One page of a search in the search's own order (a page read backwards is turned round). */
export async function searchPayments(db: Queryable, query: SearchQuery): Promise<SearchRow[]> {
  const { sql, params, reversed } = searchSql(query, await chooseStrategy(db, query));
  const descending = (query.search.order === 'desc') !== reversed;
  const { rows } = await db.query<SearchRow>(ROW_SQL(sql, descending ? 'DESC' : 'ASC', SORT_COLUMN[query.search.sort]), params);
  const page = rows.map((row) => ({ ...row, amountMinor: BigInt(row.amountMinor) }));
  return reversed ? page.reverse() : page;
}

/** The entities a merchant's people see: the merchant entity and its channels. */
export async function merchantEntityIds(db: Queryable, merchantId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM entities WHERE id = $1 OR merchant_id = $1', [merchantId]);
  return rows.map((row) => row.id);
}
