import type { Queryable } from '../port.js';

/**
 * One velocity count to make: attempts of `key` after `since`, the newest `cap` at most (a count
 * only has to tell whether a limit is passed, so a hot key costs no more than its limit);
 * `declines`: whether their outcomes are looked up. `i` is the rule's position.
 */
export interface CountProbe { readonly i: number; readonly key: string; readonly since: Date; readonly cap: number; readonly declines: boolean }
/** One list look-up: is `value` on a list of the entities as a `kind` entry. */
export interface ListProbe { readonly kind: string; readonly value: string; readonly source?: string | undefined }

/** The keys an attempt is counted under, written with its payment's pending row (payment-writes.ts). */
export interface AttemptToRecord {
  readonly keys: readonly string[];
  readonly at: Date;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly transactionId: string;
}

export interface CountRow { readonly i: number; readonly attempts: number; readonly declines: number; readonly amount: string }
export interface HitRow { readonly list: 'black' | 'white'; readonly kind: string; readonly source: string | null }

/** What one payment's check reads. */
export interface FactsRequest {
  readonly counts: readonly CountProbe[];
  readonly currency: string;
  readonly probes: readonly ListProbe[];
  readonly listEntityIds: readonly string[];
}

export interface FactsRead { readonly counts: CountRow[]; readonly hits: HitRow[] }

/**
 * What the risk rules read for a group of payments, as two CTEs (`counts`, `hits`) over the
 * parameters `countsParam` and `probesParam` (factsParameters()), and the select of their rows
 * (FACTS_SELECT). The velocity counts are index range scans of risk_attempts by key and time,
 * newest first, bounded by the probe's cap; declines are the counted attempts whose transaction
 * was rejected, a primary-key look-up each, made only for a declines rule (a join would look
 * every attempt up and filter afterwards). The list entries each payment matches are a
 * primary-key look-up per value and entity (`entity` is typed char(32) like the column, or
 * PostgreSQL compares as text and scans the whole list). `p` is the payment's position.
 *
 * The CTEs ride in the statement that writes pending payments (payment-writes.ts): a payment's
 * read shares the round trip of other payments' writes instead of costing one of its own. Rows
 * that statement inserts are not visible to its counts, so the counts are the earlier attempts.
 */
export function factsCtes(countsParam: string, probesParam: string, beforeOwnAttempt = false): string {
  // Read again after the payment's own attempt committed (its statement's answer was lost): the
  // attempts its statement saw, those up to its own, without its own.
  const own = beforeOwnAttempt ? ' AND r.at <= w.until AND r.transaction_id IS DISTINCT FROM w.own' : '';
  return `counts AS (
  SELECT w.p, w.i, c.attempts, c.declines, c.amount
    FROM json_to_recordset(${countsParam}::json) AS w(p int, i int, key text, since timestamptz, cap int, declines boolean, currency text${beforeOwnAttempt ? ', own text, until timestamptz' : ''})
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS attempts,
             count(*) FILTER (WHERE w.declines AND EXISTS (SELECT FROM transactions t WHERE t.id = a.transaction_id AND t.status = 'rejected'))::int AS declines,
             coalesce(sum(a.amount_minor) FILTER (WHERE a.currency = w.currency), 0)::text AS amount
        FROM (SELECT r.amount_minor, r.currency, r.transaction_id FROM risk_attempts r
               WHERE r.key_hash = w.key AND r.at > w.since${own} ORDER BY r.at DESC LIMIT w.cap) a) c),
hits AS (
  SELECT DISTINCT q.p, e.list, e.kind, q.source
    FROM json_to_recordset(${probesParam}::json) AS q(p int, kind text, value text, source text, entity char(32))
    JOIN risk_list_entries e ON e.entity_id = q.entity AND e.kind = q.kind AND e.value = q.value)`;
}

export const FACTS_SELECT = 'SELECT (SELECT json_agg(counts) FROM counts) AS counts, (SELECT json_agg(hits) FROM hits) AS hits';

export interface FactsRows { readonly counts: (CountRow & { p: number })[] | null; readonly hits: (HitRow & { p: number })[] | null }

/**
 * The two parameters of factsCtes(). Objects are written property by property, without spreads:
 * on Node 20 a property added after a spread costs microseconds, and this runs for every probe
 * of every payment (docs/performance.md).
 */
export function factsParameters(requests: readonly FactsRequest[], ownAttempts?: readonly AttemptToRecord[]): [string, string] {
  const counts: object[] = [];
  const probes: object[] = [];
  requests.forEach((r, p) => {
    const own = ownAttempts?.[p];
    for (const c of r.counts) {
      counts.push(own
        ? { p, i: c.i, key: c.key, since: c.since.toISOString(), cap: c.cap, declines: c.declines, currency: r.currency, own: own.transactionId, until: own.at.toISOString() }
        : { p, i: c.i, key: c.key, since: c.since.toISOString(), cap: c.cap, declines: c.declines, currency: r.currency });
    }
    for (const q of r.probes) for (const entity of r.listEntityIds) probes.push({ p, kind: q.kind, value: q.value, source: q.source ?? null, entity });
  });
  return [JSON.stringify(counts), JSON.stringify(probes)];
}

/** The selected rows split per payment, in the order of the requests. */
export function factsOf(row: FactsRows | undefined, requestCount: number): FactsRead[] {
  const read: FactsRead[] = Array.from({ length: requestCount }, () => ({ counts: [], hits: [] }));
  for (const { p, ...count } of row?.counts ?? []) read[p]!.counts.push(count);
  for (const { p, ...hit } of row?.hits ?? []) read[p]!.hits.push(hit);
  return read;
}

/** One payment's lists and counts alone: a standalone risk request, benchmarks. */
export async function readFacts(db: Queryable, request: FactsRequest): Promise<FactsRead> {
  const { rows } = await db.query<FactsRows>(`WITH ${factsCtes('$1', '$2')} ${FACTS_SELECT}`, factsParameters([request]), { prepareAs: 'risk_facts_v4' });
  return factsOf(rows[0], 1)[0]!;
}

/** The INSERT of the attempts given as attemptRows() in the parameter `param`, inside a payment's statement: a row per key. */
export function insertAttemptsSql(param: string): string {
  return `INSERT INTO risk_attempts (key_hash, at, amount_minor, currency, transaction_id)
  SELECT k.key, a.at, a.amount_minor, a.currency, a.transaction_id
    FROM json_to_recordset(${param}::json) AS a(keys json, at timestamptz, amount_minor bigint, currency text, transaction_id text)
    CROSS JOIN LATERAL json_array_elements_text(a.keys) AS k(key)`;
}

/** One element per attempt, its keys in an array (the statement writes a row per key). */
export function attemptRows(attempts: readonly AttemptToRecord[]): string {
  return JSON.stringify(attempts.map((a) => ({ keys: a.keys, at: a.at.toISOString(), amount_minor: a.amountMinor.toString(), currency: a.currency, transaction_id: a.transactionId })));
}

/** Attempts older than the longest window serve no rule: removed in bounded batches by a job. */
export async function deleteAttemptsBefore(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM risk_attempts WHERE ctid IN (SELECT ctid FROM risk_attempts WHERE at < $1 LIMIT $2)',
    [before, limit],
  );
  return rowCount;
}
