import type { Queryable } from '../port.js';

export interface RiskEvaluationRow {
  readonly transactionId: string;
  readonly entityId: string;
  readonly decision: string;
  readonly score: number;
  readonly fired: unknown;
  readonly ruleSetVersion: number | null;
  readonly createdAt: Date;
}

export async function insertEvaluation(db: Queryable, e: RiskEvaluationRow): Promise<void> {
  await db.query(
    `INSERT INTO risk_evaluations (transaction_id, entity_id, decision, score, fired, rule_set_version, created_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7) ON CONFLICT DO NOTHING`,
    [e.transactionId, e.entityId, e.decision, e.score, JSON.stringify(e.fired), e.ruleSetVersion, e.createdAt],
  );
}

/** The evaluation of a transaction of one of the entities (a merchant sees its channels' too). */
export async function findEvaluation(db: Queryable, transactionId: string): Promise<RiskEvaluationRow | undefined> {
  const { rows } = await db.query<{ transaction_id: string; entity_id: string; decision: string; score: number; fired: unknown; rule_set_version: number | null; created_at: Date }>(
    'SELECT transaction_id, entity_id, decision, score, fired, rule_set_version, created_at FROM risk_evaluations WHERE transaction_id = $1',
    [transactionId],
  );
  const r = rows[0];
  return r && { transactionId: r.transaction_id, entityId: r.entity_id.trim(), decision: r.decision, score: r.score, fired: r.fired, ruleSetVersion: r.rule_set_version, createdAt: r.created_at };
}
