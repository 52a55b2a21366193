/**
 * Whether a SQL statement would stay on one shard of a distributed PostgreSQL (Citus) under the
 * placement of src/storage/distribution.ts: each distributed table it touches must be filtered by
 * its distribution column compared with a bound parameter (`entity_id = $1`, `= ANY($1)`, a
 * VALUES row naming it). Citus routes such a statement to the shards of those values; a value
 * read from a JSON record set or another table is not known when it plans, so it cannot.
 */
import type { Placement } from '../../src/storage/distribution.js';

type Distributed = Extract<Placement, { kind: 'distributed' }>;

export interface TableFinding {
  readonly table: string;
  readonly filtered: boolean;
}

const NOT_AN_ALIAS = new Set(['where', 'set', 'on', 'using', 'join', 'left', 'inner', 'cross', 'select', 'values', 'order', 'group', 'limit', 'for', 'returning', 'offset', 'as', 'default']);

/** One line, no comments: the recorder and the patterns below see the statement the same way. */
export function normalizeSql(sql: string): string {
  return sql.replace(/--[^\n]*/g, ' ').replace(/\s+/g, ' ').trim();
}

interface Occurrence {
  readonly alias: string | undefined;
  /** INSERT INTO t (columns) VALUES (…): the named columns. */
  readonly insertedWithValues?: readonly string[];
}

function occurrencesOf(sql: string, table: string): Occurrence[] {
  const found: Occurrence[] = [];
  const pattern = new RegExp(`\\b(FROM|JOIN|UPDATE|INTO)\\s+${table}\\b(?:\\s+(?:AS\\s+)?([a-z_]\\w*))?(\\s*\\(([^)]*)\\)\\s*(VALUES)?)?`, 'gi');
  for (const match of sql.matchAll(pattern)) {
    const alias = match[2] && !NOT_AN_ALIAS.has(match[2].toLowerCase()) ? match[2] : undefined;
    const values = match[1]!.toUpperCase() === 'INTO' && match[5] !== undefined;
    found.push({ alias, ...(values ? { insertedWithValues: match[4]!.split(',').map((column) => column.trim()) } : {}) });
  }
  return found;
}

/** `<qualifier>.column` or bare `column` compared with a parameter, or a parameter list. */
function comparesWithParameter(sql: string, qualifiers: readonly string[], column: string, bareAllowed: boolean): boolean {
  const names = [...qualifiers.map((q) => `${q}\\.`), ...(bareAllowed ? [''] : [])];
  if (names.length === 0) return false;
  const operand = `(?:=\\s*(?:ANY\\s*\\(\\s*)?\\$\\d+|IN\\s*\\(\\s*SELECT\\s+json_array_elements_text\\s*\\(\\s*\\$\\d+)`;
  return new RegExp(`(?<![\\w.])(?:${names.join('|')})${column}\\s*${operand}`, 'i').test(sql);
}

/** For each distributed table the statement touches: whether it is filtered by its distribution column. */
export function shardFindings(rawSql: string, tables: ReadonlyMap<string, Distributed>): TableFinding[] {
  const sql = normalizeSql(rawSql);
  const touched = [...tables].map(([table, placement]) => ({ table, placement, occurrences: occurrencesOf(sql, table) })).filter((t) => t.occurrences.length > 0);
  return touched.map(({ table, placement, occurrences }) => {
    const inserted = occurrences.filter((o) => o.insertedWithValues);
    const queried = occurrences.filter((o) => !o.insertedWithValues);
    const insertsFiltered = inserted.every((o) => placement.columnExists && o.insertedWithValues!.includes(placement.column));
    const qualifiers = [table, ...queried.flatMap((o) => (o.alias ? [o.alias] : []))];
    // A bare column names this table only when no other distributed table is in the statement.
    const queriesFiltered = queried.length === 0 || (placement.columnExists && comparesWithParameter(sql, qualifiers, placement.column, touched.length === 1));
    return { table, filtered: insertsFiltered && queriesFiltered };
  });
}
