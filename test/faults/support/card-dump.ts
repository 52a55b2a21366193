/**
 * Searches a database dump and log lines for card numbers: every row of every table as JSON
 * (row_to_json), each column on its own so a hit names its table and column; bytea columns are
 * also read as the bytes they hold. Findings are masked (first six, last four).
 */
import { cardNumbersIn, hiddenNumbersIn, masked, withoutJsonNumbers } from './card-scan.js';

export interface DumpedRow {
  readonly table: string;
  /** row_to_json(t)::text */
  readonly json: string;
}

export interface Finding {
  readonly where: string;
  readonly cardNumber: string;
}

const QUOTE = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Something with a query method (pg.Client, the gateway's Storage). */
export interface Queryable {
  query<T>(sql: string, params?: string[]): Promise<{ rows: T[] }>;
}

/** Every row of every base table of the schema, as JSON text. */
export async function dumpSchema(db: Queryable, schema: string): Promise<{ tables: string[]; rows: DumpedRow[] }> {
  const { rows: tables } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1`,
    [schema],
  );
  const rows: DumpedRow[] = [];
  for (const { table_name: table } of tables) {
    const { rows: lines } = await db.query<{ json: string }>(`SELECT row_to_json(t)::text AS json FROM ${QUOTE(schema)}.${QUOTE(table)} t`);
    rows.push(...lines.map((line) => ({ table, json: line.json })));
  }
  return { tables: tables.map((t) => t.table_name), rows };
}

/** A bytea column as row_to_json writes it (\x…hex), read back as text. */
const byteaText = (value: string) => (/^\\x([0-9a-f]{2})+$/.test(value) ? Buffer.from(value.slice(2), 'hex').toString('latin1') : undefined);

function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value, byteaText(value) ?? ''];
  // Numbers are amounts, counters and times; a card number is never stored as one.
  if (value === null || typeof value !== 'object') return [];
  return [JSON.stringify(value)];
}

/** Luhn-valid runs, and the `hidden` numbers (those a test sent) in any separator form. */
function numbersIn(text: string, hidden: readonly string[]): string[] {
  const found = cardNumbersIn(text);
  const known = new Set(found.map((number) => number.replace(/[^0-9]/g, '')));
  return [...found, ...hiddenNumbersIn(text, hidden).filter((number) => !known.has(number))];
}

export function findInRows(rows: readonly DumpedRow[], hidden: readonly string[] = []): Finding[] {
  const findings: Finding[] = [];
  for (const row of rows) {
    for (const [column, value] of Object.entries(JSON.parse(row.json) as Record<string, unknown>)) {
      for (const text of textsOf(value)) for (const found of numbersIn(text, hidden)) findings.push({ where: `${row.table}.${column}`, cardNumber: masked(found) });
    }
  }
  return findings;
}

export function findInLog(lines: readonly string[], source: string, hidden: readonly string[] = []): Finding[] {
  return lines.flatMap((line, index) => numbersIn(withoutJsonNumbers(line), hidden).map((found) => ({ where: `${source} line ${index + 1}: ${fieldOf(line, found)}`, cardNumber: masked(found) })));
}

/** The JSON key nearest before the hit, so a log finding says which field carried it. */
function fieldOf(line: string, found: string): string {
  const before = line.slice(0, line.indexOf(found));
  return /"([^"]+)":\s*"?[^"]*$/.exec(before)?.[1] ?? 'text';
}

/** Findings counted by place, for a report that stays short. */
export function summary(findings: readonly Finding[]): Record<string, string[]> {
  const by: Record<string, Set<string>> = {};
  for (const f of findings) (by[f.where.replace(/ line \d+/, '')] ??= new Set()).add(f.cardNumber);
  return Object.fromEntries(Object.entries(by).map(([where, numbers]) => [where, [...numbers]]));
}
