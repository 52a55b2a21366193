import { GatewayError } from '../../results/gateway-error.js';
import { revokeAccessToken as revokeRow } from '../../storage/repositories/access-tokens.js';
import type { OperationDeps } from '../deps.js';

export async function revokeAccessToken(deps: OperationDeps, tokenId: string): Promise<{ tokenId: string; revoked: true }> {
  const revoked = await revokeRow(deps.storage, tokenId, deps.clock.now());
  if (!revoked) {
    throw new GatewayError('200.300.406', {
      httpStatus: 404,
      parameterErrors: [{ name: 'tokenId', value: tokenId.slice(0, 64), message: 'no active access token has this id' }],
    });
  }
  return { tokenId, revoked: true };
}
