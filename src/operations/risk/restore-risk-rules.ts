import { GatewayError } from '../../results/gateway-error.js';
import { findRuleSetVersion } from '../../storage/repositories/risk-config.js';
import { existingEntity, setRiskRules, type RiskConfigDeps } from './configure-risk.js';

/**
 * An earlier version of the entity's rule set made the one in force again: a new version with
 * that version's rules (the history is never rewritten), checked by the same validation as any
 * change, so a version saved before a rule was tightened cannot come back unchecked.
 */
export async function restoreRiskRules(deps: RiskConfigDeps, input: { entityId: string; version: string; changedBy: string }) {
  const entityId = await existingEntity(deps, input.entityId);
  const version = /^[1-9][0-9]{0,8}$/.test(input.version.trim()) ? Number(input.version.trim()) : undefined;
  const earlier = version === undefined ? undefined : await findRuleSetVersion(deps.storage, entityId, version);
  if (!earlier) {
    throw new GatewayError('200.300.404', { httpStatus: 404, parameterErrors: [{ name: 'version', value: input.version.slice(0, 12), message: 'this entity has no rule set version with this number' }] });
  }
  const saved = await setRiskRules(deps, { entityId, rules: JSON.stringify(earlier.rules), changedBy: input.changedBy });
  return { ...saved, restoredFrom: earlier.version };
}
