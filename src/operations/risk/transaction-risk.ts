import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import { findEvaluation } from '../../storage/repositories/risk-evaluations.js';
import type { OperationDeps } from '../deps.js';

/**
 * What the risk engine decided for a transaction, for the operator: the score, the decision and
 * the rules that fired. A checked payment where no rule fired has no row: score 0, accepted.
 */
export async function transactionRisk(deps: OperationDeps, transactionId: string) {
  const notFound = () => new GatewayError('700.400.580', { httpStatus: 404, parameterErrors: [{ name: 'transaction', value: maskPanLikeDigits(transactionId).slice(0, 64), message: 'no transaction has this id' }] });
  if (!ENTITY_ID_PATTERN.test(transactionId)) throw notFound();
  const found = await findEvaluation(deps.storage, transactionId);
  if (!found) {
    const { rows } = await deps.storage.query('SELECT 1 FROM transactions WHERE id = $1', [transactionId]);
    if (rows.length === 0) throw notFound();
    return { transactionId, decision: 'accept', score: 0, fired: [] };
  }
  return { transactionId, entityId: found.entityId, decision: found.decision, score: found.score, fired: found.fired, ruleSetVersion: found.ruleSetVersion, evaluatedAt: found.createdAt.toISOString() };
}
