import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { formatRequirement, parseRequirement, REQUIREMENT_MODES } from '../../domain/three-d-secure/requirement.js';
import { GatewayError } from '../../results/gateway-error.js';
import { updateThreeDSecureSetting } from '../../storage/repositories/entity-settings.js';
import type { OperationDeps } from '../deps.js';

export interface ThreeDSecureSetting {
  readonly entityId: string;
  readonly threeDSecure: string;
}

/**
 * Sets whether the entity's card payments must be authenticated by 3-D Secure: never,
 * if-enrolled (the default), always, or above:<amount>:<currency>. Every process applies it
 * within five seconds (requirement-settings.ts); `forget` drops this process's copy at once.
 */
export async function setThreeDSecure(deps: Pick<OperationDeps, 'storage'>, entityId: string, text: string, forget?: (entityId: string) => void): Promise<ThreeDSecureSetting> {
  const parsed = parseRequirement(text);
  if ('error' in parsed) {
    throw new GatewayError('200.300.404', {
      parameterErrors: [{ name: 'requirement', value: maskPanLikeDigits(text).slice(0, 64), message: `${parsed.error}; one of ${REQUIREMENT_MODES.map((m) => m.text).join(', ')}` }],
    });
  }
  const normalised = formatRequirement(parsed);
  const updated = ENTITY_ID_PATTERN.test(entityId) && (await updateThreeDSecureSetting(deps.storage, entityId, normalised));
  if (!updated) {
    throw new GatewayError('200.300.406', {
      httpStatus: 404,
      parameterErrors: [{ name: 'entity', value: maskPanLikeDigits(entityId).slice(0, 64), message: 'no entity has this id' }],
    });
  }
  forget?.(entityId);
  return { entityId, threeDSecure: normalised };
}
