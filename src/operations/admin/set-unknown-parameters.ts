import type { UnknownParameterMode } from '../../catalogue/types.js';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import { updateUnknownParameterMode } from '../../storage/repositories/entity-settings.js';
import type { OperationDeps } from '../deps.js';

export const UNKNOWN_PARAMETER_MODES: readonly UnknownParameterMode[] = ['reject', 'ignore'];

export interface UnknownParametersSetting {
  readonly entityId: string;
  readonly unknownParameters: UnknownParameterMode;
}

function isMode(value: string): value is UnknownParameterMode {
  return (UNKNOWN_PARAMETER_MODES as readonly string[]).includes(value);
}

/**
 * Sets what the entity's requests get for a parameter no endpoint knows: 'reject' (the default:
 * 200.300.404 naming it) or 'ignore' (accepted; the names are listed in the answer).
 */
export async function setUnknownParameters(deps: Pick<OperationDeps, 'storage'>, entityId: string, mode: string): Promise<UnknownParametersSetting> {
  if (!isMode(mode)) {
    throw new GatewayError('200.300.404', {
      parameterErrors: [{ name: 'mode', value: maskPanLikeDigits(mode).slice(0, 64), message: `must be ${UNKNOWN_PARAMETER_MODES.join(' or ')}` }],
    });
  }
  const updated = ENTITY_ID_PATTERN.test(entityId) && (await updateUnknownParameterMode(deps.storage, entityId, mode));
  if (!updated) {
    throw new GatewayError('200.300.406', {
      httpStatus: 404,
      parameterErrors: [{ name: 'entity', value: maskPanLikeDigits(entityId).slice(0, 64), message: 'no entity has this id' }],
    });
  }
  return { entityId, unknownParameters: mode };
}
