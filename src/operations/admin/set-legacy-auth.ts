import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import { setLegacyAuth as setRow } from '../../storage/repositories/entities.js';
import type { OperationDeps } from '../deps.js';

export interface LegacyAuthSetting {
  readonly entityId: string;
  readonly legacyAuth: boolean;
}

/**
 * Turns OPPWA's authentication.* fields on or off for one entity; Bearer tokens work either way.
 * The gateway that runs the change forgets its cached answers at once, the others within
 * PRINCIPAL_CACHE_TTL_MS.
 */
export async function setEntityLegacyAuth(deps: Pick<OperationDeps, 'storage'>, entityId: string, enabled: boolean): Promise<LegacyAuthSetting> {
  // A malformed id names no entity; NUL would not even reach the comparison in PostgreSQL.
  if (!ENTITY_ID_PATTERN.test(entityId) || !(await setRow(deps.storage, entityId, enabled))) {
    throw new GatewayError('200.300.406', {
      httpStatus: 404,
      parameterErrors: [{ name: 'entity', value: maskPanLikeDigits(entityId).slice(0, 64), message: 'no entity has this id' }],
    });
  }
  return { entityId, legacyAuth: enabled };
}
