import type { Queryable } from '../port.js';

/** One velocity count to make: attempts of `key` after `since`. `i` is the rule's position. */
export interface CountProbe { readonly i: number; readonly key: string; readonly since: Date }
/** One list look-up: is `value` on a list of the entities as a `kind` entry. */
export interface ListProbe { readonly kind: string; readonly value: string; readonly source?: string | undefined }

export interface AttemptToRecord {
  readonly keys: readonly string[];
  readonly at: Date;
  readonly amountMinor: bigint;
  readonly transactionId: string;
}

export interface CountRow { readonly i: number; readonly attempts: number; readonly declines: number; readonly amount: string }
export interface HitRow { readonly list: 'black' | 'white'; readonly kind: string; readonly source: string | null }

/**
 * Everything the risk rules read, and the attempt recorded, in one statement (one round trip per
 * payment): the velocity counts (index range scans of risk_attempts by key and time; declines
 * are the counted attempts whose transaction was rejected), the list entries the payment
 * matches, and the insert of this attempt's keys. The insert's rows are not visible to the
 * counts of the same statement, so the counts are the earlier attempts.
 */
const FACTS_SQL = `
WITH wanted AS (SELECT * FROM json_to_recordset($1::json) AS w(i int, key text, since timestamptz)),
counts AS (
  SELECT w.i, count(a.key_hash)::int AS attempts,
         count(t.id) FILTER (WHERE t.status = 'rejected')::int AS declines,
         coalesce(sum(a.amount_minor) FILTER (WHERE a.currency = $2), 0)::text AS amount
    FROM wanted w
    LEFT JOIN risk_attempts a ON a.key_hash = w.key AND a.at > w.since
    LEFT JOIN transactions t ON t.id = a.transaction_id
   GROUP BY w.i),
hits AS (
  SELECT DISTINCT e.list, e.kind, p.source
    FROM json_to_recordset($3::json) AS p(kind text, value text, source text)
    JOIN risk_list_entries e ON e.kind = p.kind AND e.value = p.value
   WHERE e.entity_id IN (SELECT json_array_elements_text($4::json))),
recorded AS (
  INSERT INTO risk_attempts (key_hash, at, amount_minor, currency, transaction_id)
  SELECT k.key, $6, $7, $2, $8 FROM json_array_elements_text($5::json) AS k(key))
SELECT (SELECT json_agg(counts) FROM counts) AS counts, (SELECT json_agg(hits) FROM hits) AS hits`;

export async function readFactsAndRecordAttempt(
  db: Queryable,
  input: { readonly counts: readonly CountProbe[]; readonly currency: string; readonly probes: readonly ListProbe[]; readonly listEntityIds: readonly string[]; readonly attempt: AttemptToRecord },
): Promise<{ counts: CountRow[]; hits: HitRow[] }> {
  const { attempt } = input;
  const { rows } = await db.query<{ counts: CountRow[] | null; hits: HitRow[] | null }>(
    FACTS_SQL,
    [
      JSON.stringify(input.counts.map((c) => ({ i: c.i, key: c.key, since: c.since.toISOString() }))),
      input.currency,
      JSON.stringify(input.probes),
      JSON.stringify(input.listEntityIds),
      JSON.stringify(attempt.keys),
      attempt.at,
      attempt.amountMinor,
      attempt.transactionId,
    ],
    { prepareAs: 'risk_facts_v1' },
  );
  return { counts: rows[0]?.counts ?? [], hits: rows[0]?.hits ?? [] };
}

/** The list look-ups and counts alone, nothing recorded: a standalone risk request is no attempt. */
export async function readFacts(
  db: Queryable,
  input: { readonly counts: readonly CountProbe[]; readonly currency: string; readonly probes: readonly ListProbe[]; readonly listEntityIds: readonly string[] },
): Promise<{ counts: CountRow[]; hits: HitRow[] }> {
  return readFactsAndRecordAttempt(db, { ...input, attempt: { keys: [], at: new Date(0), amountMinor: 0n, transactionId: ''.padEnd(32, '0') } });
}

/** Attempts older than the longest window serve no rule: removed in bounded batches by a job. */
export async function deleteAttemptsBefore(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM risk_attempts WHERE ctid IN (SELECT ctid FROM risk_attempts WHERE at < $1 LIMIT $2)',
    [before, limit],
  );
  return rowCount;
}
