import { ENTITY_ID_PATTERN as TOKEN_ID_PATTERN } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import { revokeAccessToken as revokeRow } from '../../storage/repositories/access-tokens.js';
import type { OperationDeps } from '../deps.js';

export async function revokeAccessToken(deps: OperationDeps, tokenId: string): Promise<{ tokenId: string; revoked: true }> {
  // A malformed id names no token (token ids are made like entity ids: 32 hex digits).
  const revoked = TOKEN_ID_PATTERN.test(tokenId) && (await revokeRow(deps.storage, tokenId, deps.clock.now()));
  if (!revoked) {
    throw new GatewayError('200.300.406', {
      httpStatus: 404,
      parameterErrors: [{ name: 'tokenId', value: maskPanLikeDigits(tokenId).slice(0, 64), message: 'no active access token has this id' }],
    });
  }
  return { tokenId, revoked: true };
}
