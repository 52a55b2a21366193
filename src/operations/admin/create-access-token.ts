import { newAccessToken } from '../../domain/access-token-form.js';
import { ENTITY_ID_PATTERN, hashAccessToken } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import { insertAccessToken } from '../../storage/repositories/access-tokens.js';
import { findEntity } from '../../storage/repositories/entities.js';
import type { OperationDeps } from '../deps.js';

export interface CreatedAccessToken {
  readonly tokenId: string;
  readonly entityId: string;
  readonly accessToken: string;
}

/** Issues one more token for an entity (for rotation: create the new one, then revoke the old). */
function entityNotFound(entityId: string): GatewayError {
  return new GatewayError('200.300.406', {
    httpStatus: 404,
    parameterErrors: [{ name: 'entity', value: maskPanLikeDigits(entityId).slice(0, 64), message: 'no entity has this id' }],
  });
}

export async function createAccessToken(deps: OperationDeps, entityId: string): Promise<CreatedAccessToken> {
  // A malformed id names no entity; NUL would not even reach the comparison in PostgreSQL.
  if (!ENTITY_ID_PATTERN.test(entityId)) throw entityNotFound(entityId);
  const { tokenId, accessToken } = newAccessToken(deps.ids);
  await deps.storage.transaction(async (tx) => {
    if (!(await findEntity(tx, entityId))) throw entityNotFound(entityId);
    await insertAccessToken(tx, { id: tokenId, entityId, hash: hashAccessToken(accessToken), createdAt: deps.clock.now(), revokedAt: null });
  });
  return { tokenId, entityId, accessToken };
}
