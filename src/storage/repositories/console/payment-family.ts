import type { Queryable } from '../../port.js';
import { toStored, type StoredTransaction, type TransactionRow } from '../transactions.js';

/** A transaction of a payment's family with what the risk engine decided for it (operator only). */
export interface FamilyMember {
  readonly transaction: StoredTransaction;
  readonly riskEvaluation: { readonly decision: string; readonly score: number; readonly fired: unknown } | null;
}

// The longest chain the gateway makes is PA → CP → RF (or CB → CR): the bound only stops a cycle
// that a hand-edited row could make from looping.
const MAX_DEPTH = 8;
/** The most members a detail page shows: a payment with more (a long schedule) shows its first ones. */
export const MAX_FAMILY_MEMBERS = 500;

/** The id of the family's first transaction (the one without a parent), walking up from `id`. */
export async function findFamilyRootId(db: Queryable, id: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `WITH RECURSIVE up AS (
       SELECT id, parent_id, 0 AS depth FROM transactions WHERE id = $1
       UNION ALL
       SELECT t.id, t.parent_id, up.depth + 1 FROM transactions t JOIN up ON t.id = up.parent_id WHERE up.depth < ${MAX_DEPTH})
     SELECT id FROM up ORDER BY depth DESC LIMIT 1`,
    [id],
  );
  return rows[0]?.id;
}

/** The root and everything under it (captures, refunds, reversals, chargebacks …), oldest first. */
export async function listFamily(db: Queryable, rootId: string): Promise<FamilyMember[]> {
  const { rows } = await db.query<TransactionRow & { risk_evaluation: FamilyMember['riskEvaluation']; depth: number }>(
    `WITH RECURSIVE down AS (
       SELECT t.*, 0 AS depth FROM transactions t WHERE t.id = $1
       UNION ALL
       SELECT t.*, down.depth + 1 FROM transactions t JOIN down ON t.parent_id = down.id WHERE down.depth < ${MAX_DEPTH})
     SELECT * FROM down ORDER BY created_at, id LIMIT ${MAX_FAMILY_MEMBERS}`,
    [rootId],
  );
  return rows.map((row) => ({ transaction: toStored(row), riskEvaluation: row.risk_evaluation ?? null }));
}

/** The merchant a transaction's entity belongs to (itself when the entity is a merchant). */
export async function merchantOfEntity(db: Queryable, entityId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ merchant_id: string }>('SELECT COALESCE(merchant_id, id) AS merchant_id FROM entities WHERE id = $1', [entityId]);
  return rows[0]?.merchant_id.trim();
}
