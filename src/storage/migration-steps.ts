import { canonicalEmail } from '../domain/risk/canonical-email.js';
import { canonicalIp } from '../domain/risk/keys.js';
import type { Queryable } from './port.js';

/**
 * What a migration's SQL cannot do itself (data rewritten by the gateway's own functions): run in
 * the migration's transaction, under its lock, right after its SQL, so it is done exactly once
 * and before any process reads the schema as that migration leaves it.
 */
export const MIGRATION_STEPS: ReadonlyMap<number, (tx: Queryable) => Promise<void>> = new Map([
  [31, canonicaliseListEntries],
  [33, canonicaliseEmailEntriesAgain],
]);

const BATCH_ROWS = 1_000;

interface EntryKey { entity_id: string; kind: string; value: string; list: string }
interface EntryRow extends EntryKey { shown: string }

function canonicalOf(kind: string, value: string): string {
  return (kind === 'email' ? canonicalEmail(value) : canonicalIp(value)) ?? value;
}

/**
 * Migration 033: canonicalEmail learnt comments around the domain and IDNA's ideographic full
 * stops (issue 29 review). The form is worked out again from what the entry shows (as written,
 * folded and in lower case: canonicalEmail of it is canonicalEmail of what was written), since
 * the stored form of `bad@evil.test。` lost its full stop to the skeleton.
 */
export function canonicaliseEmailEntriesAgain(tx: Queryable): Promise<void> {
  return rewriteEntries(tx, ['email'], (row) => canonicalEmail(row.shown));
}

/**
 * Migration 031: every e-mail and IP entry in the form payments are now looked up in. Entries
 * that become one (`bad+x@evil.test` beside `bad@evil.test`) are merged, the older kept; an IP
 * entry is shown as its new form. Batches in primary-key order: a rewritten entry is in its final
 * form, so meeting it again further on changes nothing.
 */
export function canonicaliseListEntries(tx: Queryable): Promise<void> {
  return rewriteEntries(tx, ['email', 'ip'], (row) => canonicalOf(row.kind, row.value));
}

async function rewriteEntries(tx: Queryable, kinds: readonly string[], canonical: (row: EntryRow) => string): Promise<void> {
  let after: EntryKey = { entity_id: '', kind: '', value: '', list: '' };
  for (;;) {
    const { rows } = await tx.query<EntryRow>(
      `SELECT entity_id, kind, value, list, shown FROM risk_list_entries
        WHERE kind = ANY($5::text[]) AND (entity_id, kind, value, list) > ($1::char(32), $2, $3, $4)
        ORDER BY entity_id, kind, value, list LIMIT ${BATCH_ROWS}`,
      [after.entity_id, after.kind, after.value, after.list, kinds],
    );
    if (rows.length === 0) return;
    const moved = rows
      .map((row) => ({ entity_id: row.entity_id, kind: row.kind, value: row.value, list: row.list, canonical: canonical(row) }))
      .filter((r) => r.canonical !== r.value);
    if (moved.length > 0) await moveEntries(tx, moved);
    after = rows[rows.length - 1]!;
  }
}

async function moveEntries(tx: Queryable, moved: readonly (EntryKey & { canonical: string })[]): Promise<void> {
  await tx.query(
    `WITH moved AS (
       SELECT * FROM json_to_recordset($1::json) AS m(entity_id char(32), kind text, value text, list text, canonical text)),
     inserted AS (
       INSERT INTO risk_list_entries (entity_id, list, kind, value, shown, reason, added_by, added_at)
       SELECT DISTINCT ON (e.entity_id, e.kind, m.canonical, e.list)
              e.entity_id, e.list, e.kind, m.canonical, CASE WHEN e.kind = 'ip' THEN m.canonical ELSE e.shown END, e.reason, e.added_by, e.added_at
         FROM risk_list_entries e JOIN moved m ON e.entity_id = m.entity_id AND e.kind = m.kind AND e.value = m.value AND e.list = m.list
        ORDER BY e.entity_id, e.kind, m.canonical, e.list, e.added_at
       ON CONFLICT DO NOTHING)
     DELETE FROM risk_list_entries e USING moved m
      WHERE e.entity_id = m.entity_id AND e.kind = m.kind AND e.value = m.value AND e.list = m.list`,
    [JSON.stringify(moved)],
  );
}
