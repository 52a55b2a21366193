import type { Visibility } from '../../domain/access/actor.js';
import { legacyCredentialOf } from '../../domain/access-token-form.js';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { listAccessTokens } from '../../storage/repositories/access-tokens.js';
import { lastUseOfTokens } from '../../storage/repositories/api-request-log.js';
import { entityOfAccessToken } from '../../storage/repositories/developer-entities.js';
import { createAccessToken } from '../admin/create-access-token.js';
import { revokeAccessToken } from '../admin/revoke-access-token.js';
import { setEntityLegacyAuth } from '../admin/set-legacy-auth.js';
import { withAudit } from '../audit/audited.js';
import { entitySettingChange } from '../audit/entity-snapshot.js';
import type { OperationDeps } from '../deps.js';
import { entitiesInScope, notVisible, requireVisibleEntity, type DeveloperActor } from './developer-scope.js';

/** One access token in the developers' list: never the token itself (only its hash is stored). */
export interface CredentialListing {
  readonly tokenId: string;
  readonly entityId: string;
  readonly entityName: string;
  readonly entityKind: 'merchant' | 'channel';
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  /** The newest request made with it within the request log's retention; null: none within it. */
  readonly lastUsedAt: Date | null;
}

export interface CredentialsOverview {
  readonly entities: readonly { readonly id: string; readonly name: string; readonly kind: 'merchant' | 'channel'; readonly legacyAuth: boolean }[];
  /** Active tokens first, each group newest first. */
  readonly credentials: readonly CredentialListing[];
}

/** The access tokens of a merchant and its channels, with their last use. */
export async function listCredentials(deps: Pick<OperationDeps, 'storage'>, visibility: Visibility, merchantId: string): Promise<CredentialsOverview> {
  const entities = await entitiesInScope(deps.storage, visibility, merchantId);
  const tokens = (await Promise.all(entities.map(async (entity) => (await listAccessTokens(deps.storage, entity.id)).map((token) => ({ token, entity }))))).flat();
  const lastUse = await lastUseOfTokens(deps.storage, tokens.map(({ token }) => token.id));
  const credentials = tokens.map(({ token, entity }) => ({
    tokenId: token.id, entityId: entity.id, entityName: entity.name, entityKind: entity.kind,
    createdAt: token.createdAt, revokedAt: token.revokedAt, lastUsedAt: lastUse.get(token.id) ?? null,
  }));
  credentials.sort((a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null) || b.createdAt.getTime() - a.createdAt.getTime());
  return { entities, credentials };
}

/** What the result page shows once: the token and, when it has the OPPWA form, its userId/password pair. */
export interface CreatedCredential {
  readonly tokenId: string;
  readonly entityId: string;
  readonly accessToken: string;
  readonly legacy: { readonly userId: string; readonly password: string } | undefined;
  /** Whether the entity accepts the authentication.* fields now (turned off: Bearer only until turned on). */
  readonly legacyAuthEnabled: boolean;
}

/** Issues a token for the merchant or one of its channels, audited in the same transaction. */
export async function createCredential(deps: OperationDeps, who: DeveloperActor, entityId: string): Promise<CreatedCredential> {
  const created = await withAudit(deps, who.actor, async (scoped) => {
    await requireVisibleEntity(scoped.storage, who.visibility, entityId);
    return createAccessToken(scoped, entityId);
  }, {
    action: 'credentials.create',
    target: (result) => ({ kind: 'access-token', id: result.tokenId }),
    entityId: (result) => result.entityId,
    after: (result) => ({ tokenId: result.tokenId, entityId: result.entityId }),
  });
  const enabled = await deps.storage.query<{ legacy_auth: boolean }>('SELECT legacy_auth FROM entities WHERE id = $1', [entityId]);
  return { ...created, legacy: legacyCredentialOf(created.accessToken), legacyAuthEnabled: enabled.rows[0]?.legacy_auth === true };
}

/** Revokes a token of an entity the person may see; another merchant's token is "not found". */
export async function revokeCredential(deps: OperationDeps, who: DeveloperActor, tokenId: string): Promise<{ tokenId: string; entityId: string }> {
  let entityId = '';
  await withAudit(deps, who.actor, async (scoped) => {
    const owner = ENTITY_ID_PATTERN.test(tokenId) ? await entityOfAccessToken(scoped.storage, tokenId) : undefined;
    if (owner === undefined) throw notVisible('tokenId', tokenId);
    await requireVisibleEntity(scoped.storage, who.visibility, owner, 'tokenId').catch(() => {
      throw notVisible('tokenId', tokenId);
    });
    entityId = owner;
    return revokeAccessToken(scoped, tokenId);
  }, {
    action: 'credentials.revoke',
    target: () => ({ kind: 'access-token', id: tokenId }),
    entityId: () => entityId,
    after: () => ({ revoked: true }),
  });
  return { tokenId, entityId };
}

/** Turns the authentication.* fields on (or off) for an entity the person may see, audited. */
export async function setCredentialLegacyAuth(deps: OperationDeps, who: DeveloperActor, entityId: string, enabled: boolean): Promise<void> {
  await withAudit(deps, who.actor, async (scoped) => {
    await requireVisibleEntity(scoped.storage, who.visibility, entityId);
    return setEntityLegacyAuth(scoped, entityId, enabled);
  }, entitySettingChange('entities.legacy-auth', entityId));
}

/** A token of an entity the person may see (for the revoke confirmation); 404 otherwise. */
export async function findVisibleCredential(deps: Pick<OperationDeps, 'storage'>, visibility: Visibility, tokenId: string): Promise<{ tokenId: string; entityId: string; merchantId: string }> {
  const entityId = ENTITY_ID_PATTERN.test(tokenId) ? await entityOfAccessToken(deps.storage, tokenId) : undefined;
  if (entityId === undefined) throw notVisible('tokenId', tokenId);
  const merchantId = await requireVisibleEntity(deps.storage, visibility, entityId).catch(() => {
    throw notVisible('tokenId', tokenId);
  });
  return { tokenId, entityId, merchantId };
}
