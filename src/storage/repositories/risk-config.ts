import type { Queryable } from '../port.js';

export interface StoredRuleSet {
  readonly entityId: string;
  readonly version: number;
  readonly rules: unknown;
  readonly changedBy: string;
  readonly changedAt: Date;
}

interface RuleSetRow { entity_id: string; version: number; rules: unknown; changed_by: string; changed_at: Date }

const ruleSetOf = (r: RuleSetRow): StoredRuleSet => ({ entityId: r.entity_id.trim(), version: r.version, rules: r.rules, changedBy: r.changed_by, changedAt: r.changed_at });

/** The newest rule set of each of the entities (a channel and its merchant), newest first per entity. */
export async function findCurrentRuleSets(db: Queryable, entityIds: readonly string[]): Promise<StoredRuleSet[]> {
  const { rows } = await db.query<RuleSetRow>(
    `SELECT DISTINCT ON (entity_id) entity_id, version, rules, changed_by, changed_at
       FROM risk_rule_sets WHERE entity_id IN (SELECT json_array_elements_text($1::json)) ORDER BY entity_id, version DESC`,
    [JSON.stringify(entityIds)],
  );
  return rows.map(ruleSetOf);
}

/**
 * The kinds of entry (card, email …) any list of these entities holds: a primary-key probe per
 * kind, so a list of a million e-mail addresses costs what an empty one does. `entity_id` is
 * compared as char(32), its own type, or PostgreSQL would compare as text and scan.
 */
export async function findListedKinds(db: Queryable, entityIds: readonly string[], kinds: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ kind: string }>(
    `SELECT k.kind FROM unnest($2::text[]) AS k(kind)
      WHERE EXISTS (SELECT FROM risk_list_entries e WHERE e.entity_id = ANY($1::char(32)[]) AND e.kind = k.kind)`,
    [entityIds, kinds],
  );
  return rows.map((r) => r.kind);
}

export async function listRuleSetVersions(db: Queryable, entityId: string): Promise<StoredRuleSet[]> {
  const { rows } = await db.query<RuleSetRow>(
    'SELECT entity_id, version, rules, changed_by, changed_at FROM risk_rule_sets WHERE entity_id = $1 ORDER BY version DESC LIMIT 100',
    [entityId],
  );
  return rows.map(ruleSetOf);
}

/** The next version; two operators saving at once: the primary key makes one of them fail, not both win. */
export async function insertRuleSet(db: Queryable, entityId: string, rules: unknown, changedBy: string, now: Date): Promise<number> {
  const { rows } = await db.query<{ version: number }>(
    `INSERT INTO risk_rule_sets (entity_id, version, rules, changed_by, changed_at)
     SELECT $1, coalesce(max(version), 0) + 1, $2::jsonb, $3, $4 FROM risk_rule_sets WHERE entity_id = $1
     RETURNING version`,
    [entityId, JSON.stringify(rules), changedBy, now],
  );
  return rows[0]!.version;
}

export interface ListEntry {
  readonly entityId: string;
  readonly list: 'black' | 'white';
  readonly kind: string;
  readonly value: string;
  readonly shown: string;
  readonly reason: string | null;
  readonly addedBy: string;
  readonly addedAt: Date;
}

/** Adds the entry; answers false when it was there already. */
export async function insertListEntry(db: Queryable, e: ListEntry): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO risk_list_entries (entity_id, list, kind, value, shown, reason, added_by, added_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
    [e.entityId, e.list, e.kind, e.value, e.shown, e.reason, e.addedBy, e.addedAt],
  );
  return rowCount > 0;
}

export async function deleteListEntry(db: Queryable, e: Pick<ListEntry, 'entityId' | 'list' | 'kind' | 'value'>): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM risk_list_entries WHERE entity_id = $1 AND list = $2 AND kind = $3 AND value = $4', [e.entityId, e.list, e.kind, e.value]);
  return rowCount > 0;
}

/** The entries of one entity (never the fingerprint itself: `shown` is what the operator sees). */
export async function listEntries(db: Queryable, entityId: string, list: string): Promise<Omit<ListEntry, 'value'>[]> {
  const { rows } = await db.query<{ entity_id: string; list: 'black' | 'white'; kind: string; shown: string; reason: string | null; added_by: string; added_at: Date }>(
    `SELECT entity_id, list, kind, shown, reason, added_by, added_at FROM risk_list_entries
      WHERE entity_id = $1 AND list = $2 ORDER BY kind, added_at, shown LIMIT 10000`,
    [entityId, list],
  );
  return rows.map((r) => ({ entityId: r.entity_id.trim(), list: r.list, kind: r.kind, shown: r.shown, reason: r.reason, addedBy: r.added_by, addedAt: r.added_at }));
}

export async function insertChange(db: Queryable, entityId: string, changedBy: string, now: Date, action: string, detail: Record<string, unknown>): Promise<void> {
  await db.query('INSERT INTO risk_changes (entity_id, changed_by, changed_at, action, detail) VALUES ($1, $2, $3, $4, $5::jsonb)', [entityId, changedBy, now, action, JSON.stringify(detail)]);
}

export interface RiskChange { readonly changedBy: string; readonly changedAt: Date; readonly action: string; readonly detail: unknown }

export async function listChanges(db: Queryable, entityId: string): Promise<RiskChange[]> {
  const { rows } = await db.query<{ changed_by: string; changed_at: Date; action: string; detail: unknown }>(
    'SELECT changed_by, changed_at, action, detail FROM risk_changes WHERE entity_id = $1 ORDER BY id DESC LIMIT 200',
    [entityId],
  );
  return rows.map((r) => ({ changedBy: r.changed_by, changedAt: r.changed_at, action: r.action, detail: r.detail }));
}

/** One version of an entity's rule set, as it was saved. */
export async function findRuleSetVersion(db: Queryable, entityId: string, version: number): Promise<StoredRuleSet | undefined> {
  const { rows } = await db.query<RuleSetRow>(
    'SELECT entity_id, version, rules, changed_by, changed_at FROM risk_rule_sets WHERE entity_id = $1 AND version = $2',
    [entityId, version],
  );
  return rows[0] ? ruleSetOf(rows[0]) : undefined;
}

/**
 * An entry's handle: a digest of its kind and stored value, so a page can name the entry to remove
 * without holding the value (for a card, the vault's fingerprint) or the number.
 */
const HANDLE_SQL = "substr(encode(sha256(convert_to(kind || ':' || value, 'UTF8')), 'hex'), 1, 32)";

export type HandledEntry = Omit<ListEntry, 'value'> & { readonly handle: string };

/** The entries of one entity's list with their handles (for the console's remove buttons). */
export async function listEntriesWithHandles(db: Queryable, entityId: string, list: string): Promise<HandledEntry[]> {
  const { rows } = await db.query<{ entity_id: string; list: 'black' | 'white'; kind: string; shown: string; reason: string | null; added_by: string; added_at: Date; handle: string }>(
    `SELECT entity_id, list, kind, shown, reason, added_by, added_at, ${HANDLE_SQL} AS handle FROM risk_list_entries
      WHERE entity_id = $1 AND list = $2 ORDER BY kind, added_at, shown LIMIT 10000`,
    [entityId, list],
  );
  return rows.map((r) => ({ entityId: r.entity_id.trim(), list: r.list, kind: r.kind, shown: r.shown, reason: r.reason, addedBy: r.added_by, addedAt: r.added_at, handle: r.handle }));
}

/** Deletes the entry with this handle; answers what it showed, or undefined when none has it. */
export async function deleteListEntryByHandle(db: Queryable, entityId: string, list: string, handle: string): Promise<{ kind: string; shown: string } | undefined> {
  const { rows } = await db.query<{ kind: string; shown: string }>(
    `DELETE FROM risk_list_entries WHERE entity_id = $1 AND list = $2 AND ${HANDLE_SQL} = $3 RETURNING kind, shown`,
    [entityId, list, handle],
  );
  return rows[0];
}
