import { hashAccessToken } from '../../domain/ids.js';
import { GatewayError } from '../../results/gateway-error.js';
import { insertAccessToken } from '../../storage/repositories/access-tokens.js';
import { findEntity, insertEntity } from '../../storage/repositories/entities.js';
import type { OperationDeps } from '../deps.js';

export interface CreateEntityInput {
  readonly name: string;
  /** When given, the new entity is a channel of this merchant. */
  readonly merchantId?: string | undefined;
}

export interface CreatedEntity {
  readonly entityId: string;
  readonly kind: 'merchant' | 'channel';
  readonly accessToken: string;
  readonly tokenId: string;
}

const MAX_NAME_LENGTH = 128;

function checkName(name: string): void {
  if (name.trim().length === 0 || name.length > MAX_NAME_LENGTH) {
    throw new GatewayError('200.300.404', {
      parameterErrors: [{ name: 'name', value: name.slice(0, MAX_NAME_LENGTH), message: `must be 1 to ${MAX_NAME_LENGTH} characters` }],
    });
  }
}

/** Creates a merchant or a channel with its first access token; the token is returned only here. */
export async function createEntity(deps: OperationDeps, input: CreateEntityInput): Promise<CreatedEntity> {
  checkName(input.name);
  const now = deps.clock.now();
  const entityId = deps.ids.id();
  const accessToken = deps.ids.accessToken();
  const tokenId = deps.ids.id();
  await deps.storage.transaction(async (tx) => {
    if (input.merchantId !== undefined) {
      const merchant = await findEntity(tx, input.merchantId);
      if (!merchant || merchant.kind !== 'merchant') {
        throw new GatewayError('200.300.406', {
          httpStatus: 404,
          parameterErrors: [{ name: 'merchant', value: input.merchantId, message: 'no merchant entity has this id' }],
        });
      }
    }
    const kind = input.merchantId === undefined ? 'merchant' : 'channel';
    await insertEntity(tx, { id: entityId, kind, name: input.name, merchantId: input.merchantId ?? null, createdAt: now });
    await insertAccessToken(tx, { id: tokenId, entityId, hash: hashAccessToken(accessToken), createdAt: now, revokedAt: null });
  });
  return { entityId, kind: input.merchantId === undefined ? 'merchant' : 'channel', accessToken, tokenId };
}
