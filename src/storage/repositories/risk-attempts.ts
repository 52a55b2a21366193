import type { Queryable } from '../port.js';

/**
 * One velocity count to make: attempts of `key` after `since`, the newest `cap` at most (a count
 * only has to tell whether a limit is passed, so a hot key costs no more than its limit);
 * `declines`: whether their outcomes are looked up. `i` is the rule's position.
 */
export interface CountProbe { readonly i: number; readonly key: string; readonly since: Date; readonly cap: number; readonly declines: boolean }
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

/** What one payment's check reads, and the attempt it records (absent: a standalone request). */
export interface FactsRequest {
  readonly counts: readonly CountProbe[];
  readonly currency: string;
  readonly probes: readonly ListProbe[];
  readonly listEntityIds: readonly string[];
  readonly attempt?: AttemptToRecord | undefined;
}

export interface FactsRead { readonly counts: CountRow[]; readonly hits: HitRow[] }

/**
 * Everything the risk rules read, and the attempts recorded, for a group of payments in one
 * statement (payments arriving together share it, by group commit): the velocity counts (index
 * range scans of risk_attempts by key and time, newest first, bounded by the probe's cap;
 * declines are the counted attempts whose transaction was rejected, a primary-key look-up each),
 * the list entries each payment matches, and the insert of the attempts' keys. The inserted rows
 * are not visible to the counts of the same statement, so the counts are the earlier attempts.
 * `p` is the payment's position in the group.
 */
const FACTS_SQL = `
WITH wanted AS (SELECT * FROM json_to_recordset($1::json) AS w(p int, i int, key text, since timestamptz, cap int, declines boolean, currency text)),
counts AS (
  SELECT w.p, w.i, c.attempts, c.declines, c.amount
    FROM wanted w
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS attempts,
             count(t.id) FILTER (WHERE t.status = 'rejected')::int AS declines,
             coalesce(sum(a.amount_minor) FILTER (WHERE a.currency = w.currency), 0)::text AS amount
        FROM (SELECT r.amount_minor, r.currency, r.transaction_id FROM risk_attempts r
               WHERE r.key_hash = w.key AND r.at > w.since ORDER BY r.at DESC LIMIT w.cap) a
        LEFT JOIN transactions t ON w.declines AND t.id = a.transaction_id) c),
hits AS (
  SELECT DISTINCT q.p, e.list, e.kind, q.source
    FROM json_to_recordset($2::json) AS q(p int, kind text, value text, source text, entities json)
    JOIN risk_list_entries e ON e.kind = q.kind AND e.value = q.value
   WHERE e.entity_id IN (SELECT json_array_elements_text(q.entities))),
recorded AS (
  INSERT INTO risk_attempts (key_hash, at, amount_minor, currency, transaction_id)
  SELECT k.key, k.at, k.amount_minor, k.currency, k.transaction_id
    FROM json_to_recordset($3::json) AS k(key text, at timestamptz, amount_minor bigint, currency text, transaction_id text))
SELECT (SELECT json_agg(counts) FROM counts) AS counts, (SELECT json_agg(hits) FROM hits) AS hits`;

function parameters(requests: readonly FactsRequest[]): string[] {
  const counts = requests.flatMap((r, p) => r.counts.map((c) => ({ p, i: c.i, key: c.key, since: c.since.toISOString(), cap: c.cap, declines: c.declines, currency: r.currency })));
  const probes = requests.flatMap((r, p) => r.probes.map((q) => ({ p, ...q, entities: r.listEntityIds })));
  const attempts = requests.flatMap((r) => {
    const a = r.attempt;
    return a ? a.keys.map((key) => ({ key, at: a.at.toISOString(), amount_minor: a.amountMinor.toString(), currency: r.currency, transaction_id: a.transactionId })) : [];
  });
  return [JSON.stringify(counts), JSON.stringify(probes), JSON.stringify(attempts)];
}

export async function readFactsAndRecordAttempts(db: Queryable, requests: readonly FactsRequest[]): Promise<FactsRead[]> {
  const { rows } = await db.query<{ counts: (CountRow & { p: number })[] | null; hits: (HitRow & { p: number })[] | null }>(FACTS_SQL, parameters(requests), { prepareAs: 'risk_facts_v3' });
  const read: FactsRead[] = requests.map(() => ({ counts: [], hits: [] }));
  for (const { p, ...count } of rows[0]?.counts ?? []) read[p]!.counts.push(count);
  for (const { p, ...hit } of rows[0]?.hits ?? []) read[p]!.hits.push(hit);
  return read;
}

/** One payment's check alone (a standalone risk request, which records nothing; benchmarks). */
export async function readFacts(db: Queryable, request: FactsRequest): Promise<FactsRead> {
  return (await readFactsAndRecordAttempts(db, [request]))[0]!;
}

/** Attempts older than the longest window serve no rule: removed in bounded batches by a job. */
export async function deleteAttemptsBefore(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM risk_attempts WHERE ctid IN (SELECT ctid FROM risk_attempts WHERE at < $1 LIMIT $2)',
    [before, limit],
  );
  return rowCount;
}
