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

/**
 * The INSERT of the evaluations given as evaluationRows() in the parameter `param`, inside the
 * statement that writes their payments' pending rows (payment-writes.ts).
 */
export function insertEvaluationsSql(param: string): string {
  return `INSERT INTO risk_evaluations (transaction_id, entity_id, decision, score, fired, rule_set_version, created_at)
  SELECT r.transaction_id, r.entity_id, r.decision, r.score, r.fired, r.rule_set_version, r.created_at
    FROM json_to_recordset(${param}::json) AS r(transaction_id text, entity_id text, decision text, score integer, fired jsonb, rule_set_version integer, created_at timestamptz)
  ON CONFLICT DO NOTHING`;
}

export function evaluationRows(rows: readonly RiskEvaluationRow[]): string {
  return JSON.stringify(rows.map((e) => ({ transaction_id: e.transactionId, entity_id: e.entityId, decision: e.decision, score: e.score, fired: e.fired, rule_set_version: e.ruleSetVersion, created_at: e.createdAt.toISOString() })));
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
