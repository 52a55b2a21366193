import type { Config } from '../config/load-config.js';
import { randomIds, systemClock } from '../domain/ids.js';
import { createAccessToken } from '../operations/admin/create-access-token.js';
import { createEntity } from '../operations/admin/create-entity.js';
import { listEntities } from '../operations/admin/list-entities.js';
import { revokeAccessToken } from '../operations/admin/revoke-access-token.js';
import { setEntityLegacyAuth } from '../operations/admin/set-legacy-auth.js';
import { setUnknownParameters } from '../operations/admin/set-unknown-parameters.js';
import { setThreeDSecure } from '../operations/admin/set-three-d-secure.js';
import { setConnectorDetails } from '../operations/admin/set-connector-details.js';
import { setMerchantBankAccount } from '../operations/admin/set-merchant-bank-account.js';
import { openMigratedStorage } from '../storage/open-storage.js';
import type { AdminPort } from './admin-port.js';

/** Runs the operations against the database itself (PostgreSQL, or PGlite no gateway holds). */
export async function openDirectAdmin(config: Config): Promise<AdminPort> {
  const storage = await openMigratedStorage(config);
  const deps = { storage, clock: systemClock, ids: randomIds };
  return {
    createEntity: (input) => createEntity(deps, input),
    listEntities: () => listEntities(deps),
    createToken: (entityId) => createAccessToken(deps, entityId),
    revokeToken: (tokenId) => revokeAccessToken(deps, tokenId),
    // A running gateway (PostgreSQL) sees the change within PRINCIPAL_CACHE_TTL_MS.
    setLegacyAuth: (entityId, enabled) => setEntityLegacyAuth(deps, entityId, enabled),
    setUnknownParameters: (entityId, mode) => setUnknownParameters(deps, entityId, mode),
    // A running gateway applies it within five seconds (its cache of the setting).
    setThreeDSecure: (entityId, requirement) => setThreeDSecure(deps, entityId, requirement),
    // A running gateway (PostgreSQL) sees the change within PRINCIPAL_CACHE_TTL_MS.
    setConnectorDetails: (entityId, shown) => setConnectorDetails(deps, entityId, shown),
    setBankAccount: (entityId, account) => setMerchantBankAccount(deps, entityId, account),
    close: () => storage.close(),
  };
}
