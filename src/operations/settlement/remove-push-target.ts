import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { GatewayError } from '../../results/gateway-error.js';
import { deletePushTarget } from '../../storage/repositories/settlement-push-targets.js';
import type { OperationDeps } from '../deps.js';

/**
 * Stops pushing the merchant's reconciliation files to its own server: the URL and the sealed
 * password are deleted (the files stay on the built-in SFTP server). A merchant without a target
 * answers 404, so a second remove says nothing happened rather than pretending it did.
 */
export async function removePushTarget(deps: Pick<OperationDeps, 'storage'>, merchantId: string): Promise<{ merchantId: string; url: string }> {
  const url = ENTITY_ID_PATTERN.test(merchantId) ? await deletePushTarget(deps.storage, merchantId) : undefined;
  if (url === undefined) throw new GatewayError('200.300.406', { httpStatus: 404, parameterErrors: [{ name: 'merchant', value: merchantId.slice(0, 64), message: 'this merchant has no push target' }] });
  return { merchantId, url };
}
