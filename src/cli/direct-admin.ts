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
import { withAudit } from '../operations/audit/audited.js';
import { entityCreated, tokenCreated, tokenRevoked } from '../operations/audit/admin-changes.js';
import { entitySettingChange } from '../operations/audit/entity-snapshot.js';
import { cliActor } from './cli-actor.js';

/** Runs the operations against the database itself (PostgreSQL, or PGlite no gateway holds). */
export async function openDirectAdmin(config: Config): Promise<AdminPort> {
  const storage = await openMigratedStorage(config);
  const deps = { storage, clock: systemClock, ids: randomIds };
  // Every change is recorded in the audit log as the person at this shell, in the change's transaction.
  const actor = cliActor();
  const setting = <T>(action: string, entityId: string, run: (scoped: typeof deps) => Promise<T>) => withAudit(deps, actor, run, entitySettingChange(action, entityId));
  return {
    createEntity: (input) => withAudit(deps, actor, (scoped) => createEntity(scoped, input), entityCreated(input)),
    listEntities: () => listEntities(deps),
    createToken: (entityId) => withAudit(deps, actor, (scoped) => createAccessToken(scoped, entityId), tokenCreated()),
    revokeToken: (tokenId) => withAudit(deps, actor, (scoped) => revokeAccessToken(scoped, tokenId), tokenRevoked(tokenId)),
    // A running gateway (PostgreSQL) sees the change within PRINCIPAL_CACHE_TTL_MS.
    setLegacyAuth: (entityId, enabled) => setting('entities.legacy-auth', entityId, (scoped) => setEntityLegacyAuth(scoped, entityId, enabled)),
    setUnknownParameters: (entityId, mode) => setting('entities.unknown-parameters', entityId, (scoped) => setUnknownParameters(scoped, entityId, mode)),
    // A running gateway applies it within five seconds (its cache of the setting).
    setThreeDSecure: (entityId, requirement) => setting('entities.three-d-secure', entityId, (scoped) => setThreeDSecure(scoped, entityId, requirement)),
    // A running gateway (PostgreSQL) sees the change within PRINCIPAL_CACHE_TTL_MS.
    setConnectorDetails: (entityId, shown) => setting('entities.connector-details', entityId, (scoped) => setConnectorDetails(scoped, entityId, shown)),
    setBankAccount: (entityId, account) => setting('entities.bank-account', entityId, (scoped) => setMerchantBankAccount(scoped, entityId, account)),
    close: () => storage.close(),
  };
}
