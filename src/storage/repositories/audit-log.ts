import { auditHash, type AuditEntry, type AuditValue } from '../../domain/audit/audit-entry.js';
import type { Queryable, SqlValue } from '../port.js';

const COLUMNS = 'seq, at, actor_kind, actor, actor_user_id, role, address, merchant_id, action, target_kind, target_id, before, after, prev_hash, hash';

interface AuditRow {
  seq: bigint | string;
  at: Date;
  actor_kind: AuditEntry['actorKind'];
  actor: string;
  actor_user_id: string | null;
  role: string | null;
  address: string | null;
  merchant_id: string | null;
  action: string;
  target_kind: string;
  target_id: string;
  before: AuditValue;
  after: AuditValue;
  prev_hash: string;
  hash: string;
}

function entryOf(row: AuditRow): AuditEntry {
  return {
    seq: BigInt(row.seq), at: row.at, actorKind: row.actor_kind, actor: row.actor, actorUserId: row.actor_user_id?.trim() ?? null,
    role: row.role, address: row.address, merchantId: row.merchant_id?.trim() ?? null, action: row.action, targetKind: row.target_kind,
    targetId: row.target_id, before: row.before, after: row.after, prevHash: row.prev_hash, hash: row.hash,
  };
}

export type NewAuditEntry = Omit<AuditEntry, 'seq' | 'prevHash' | 'hash'>;

/**
 * Appends one entry inside the caller's transaction: the head's row lock serialises appends,
 * gives the next seq and the previous hash. Called in the transaction of the change it records,
 * so a change and its entry commit or roll back together.
 */
export async function appendAuditEntry(tx: Queryable, entry: NewAuditEntry): Promise<AuditEntry> {
  const head = await tx.query<{ seq: bigint | string; hash: string }>('SELECT seq, hash FROM audit_head WHERE only_row FOR UPDATE');
  const previous = head.rows[0];
  if (!previous) throw new Error('audit_head is missing: migration 045 has not run');
  const unhashed = { ...entry, seq: BigInt(previous.seq) + 1n, prevHash: previous.hash };
  const full: AuditEntry = { ...unhashed, hash: auditHash(unhashed) };
  await tx.query(
    `INSERT INTO audit_log (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14, $15)`,
    [full.seq, full.at, full.actorKind, full.actor, full.actorUserId, full.role, full.address, full.merchantId, full.action, full.targetKind, full.targetId,
      jsonOrNull(full.before), jsonOrNull(full.after), full.prevHash, full.hash],
  );
  await tx.query('UPDATE audit_head SET seq = $1, hash = $2 WHERE only_row', [full.seq, full.hash]);
  return full;
}

function jsonOrNull(value: AuditValue): string | null {
  return value === null ? null : JSON.stringify(value);
}

/** Entries after `afterSeq` in chain order (verification walks the whole log in such pages). */
export async function readAuditEntriesAfter(db: Queryable, afterSeq: bigint, limit: number): Promise<AuditEntry[]> {
  const result = await db.query<AuditRow>(`SELECT ${COLUMNS} FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT $2`, [afterSeq, limit]);
  return result.rows.map(entryOf);
}

export async function readAuditHead(db: Queryable): Promise<{ seq: bigint; hash: string }> {
  const result = await db.query<{ seq: bigint | string; hash: string }>('SELECT seq, hash FROM audit_head WHERE only_row');
  const row = result.rows[0]!;
  return { seq: BigInt(row.seq), hash: row.hash };
}

export interface AuditListFilter {
  /** Only this merchant's entries (a merchant's people); undefined: every entry (operators). */
  readonly merchantId?: string | undefined;
  readonly action?: string | undefined;
  readonly targetKind?: string | undefined;
  readonly targetId?: string | undefined;
  readonly actor?: string | undefined;
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
}

/** Newest first, keyset-paged by seq: `beforeSeq` is the last seq of the previous page. */
export async function listAuditEntries(db: Queryable, filter: AuditListFilter, beforeSeq: bigint | undefined, limit: number): Promise<AuditEntry[]> {
  const conditions: string[] = [];
  const params: SqlValue[] = [];
  const add = (sql: string, value: SqlValue) => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.merchantId !== undefined) add('merchant_id = ?', filter.merchantId);
  if (filter.action) add('action = ?', filter.action);
  if (filter.targetKind) add('target_kind = ?', filter.targetKind);
  if (filter.targetId) add('target_id = ?', filter.targetId);
  if (filter.actor) add('actor = ?', filter.actor);
  if (filter.from) add('at >= ?', filter.from);
  if (filter.to) add('at < ?', filter.to);
  if (beforeSeq !== undefined) add('seq < ?', beforeSeq);
  params.push(limit);
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const result = await db.query<AuditRow>(`SELECT ${COLUMNS} FROM audit_log ${where} ORDER BY seq DESC LIMIT $${params.length}`, params);
  return result.rows.map(entryOf);
}
