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

/** The form an evaluation is kept in, in its transaction's row (transactions.risk_evaluation). */
export function evaluationJson(e: Pick<RiskEvaluationRow, 'decision' | 'score' | 'fired' | 'ruleSetVersion'>): { decision: string; score: number; fired: unknown; ruleSetVersion: number | null } {
  return { decision: e.decision, score: e.score, fired: e.fired, ruleSetVersion: e.ruleSetVersion };
}

/** The evaluation of a transaction, if a rule fired when it was checked (the operator's view). */
export async function findEvaluation(db: Queryable, transactionId: string): Promise<RiskEvaluationRow | undefined> {
  const { rows } = await db.query<{ entity_id: string; risk_evaluation: ReturnType<typeof evaluationJson>; created_at: Date }>(
    'SELECT entity_id, risk_evaluation, created_at FROM transactions WHERE id = $1 AND risk_evaluation IS NOT NULL',
    [transactionId],
  );
  const r = rows[0];
  if (!r) return undefined;
  const e = r.risk_evaluation;
  return { transactionId, entityId: r.entity_id.trim(), decision: e.decision, score: e.score, fired: e.fired, ruleSetVersion: e.ruleSetVersion, createdAt: r.created_at };
}
