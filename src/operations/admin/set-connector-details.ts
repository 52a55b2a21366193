import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import { updateShowConnectorDetails } from '../../storage/repositories/entity-settings.js';
import type { OperationDeps } from '../deps.js';

export interface ConnectorDetailsSetting {
  readonly entityId: string;
  readonly showConnectorDetails: boolean;
}

/**
 * Shows or hides the connector's details (ConnectorTxID1..3, AcquirerResponse,
 * clearingInstituteName) in the entity's payment answers, webhooks included. Stored answers keep
 * them either way, so turning the setting back on shows them for earlier payments too. The
 * process that makes the change applies it at once, the others within PRINCIPAL_CACHE_TTL_MS.
 */
export async function setConnectorDetails(deps: Pick<OperationDeps, 'storage'>, entityId: string, shown: boolean): Promise<ConnectorDetailsSetting> {
  if (!ENTITY_ID_PATTERN.test(entityId) || !(await updateShowConnectorDetails(deps.storage, entityId, shown))) {
    throw new GatewayError('200.300.406', {
      httpStatus: 404,
      parameterErrors: [{ name: 'entity', value: maskPanLikeDigits(entityId).slice(0, 64), message: 'no entity has this id' }],
    });
  }
  return { entityId, showConnectorDetails: shown };
}
