import { createRoute } from '../operations/routing/create-route.js';
import { loadVaultConfig } from '../config/vault-config.js';
import { createDefaultConnectors, createRouter } from '../connectors/default-connectors.js';
import { randomIds, systemClock } from '../domain/ids.js';
import { EntityNames } from '../operations/entity-names.js';
import { listPending, resolveManually } from '../operations/pending/resolve-manually.js';
import { disableRouteById, listRouteViews, rotateRouteCredentials } from '../operations/routing/change-route.js';
import { masterKeyRingOf, openVault } from '../operations/registrations/open-vault.js';
import { openMigratedStorage } from '../storage/open-storage.js';
import type { Config } from '../config/load-config.js';
import type { RoutingPort } from './routing-commands.js';
import { recordCompletedChange, withAudit, withVaultInTransaction } from '../operations/audit/audited.js';
import { routeChange } from '../operations/audit/admin-changes.js';
import { cliActor } from './cli-actor.js';

/** The commands on the database itself (PostgreSQL, or an embedded database no gateway holds). */
export async function openRoutingDirect(config: Config, env: Readonly<Record<string, string | undefined>>): Promise<RoutingPort> {
  const storage = await openMigratedStorage(config);
  const deps = { storage, clock: systemClock, ids: randomIds };
  const vault = openVault(deps, masterKeyRingOf(loadVaultConfig(env, config)));
  const registry = createDefaultConnectors({ ...deps, acquirer: config.acquirer, system: config.system });
  const entities = new EntityNames(storage);
  const connectors = createRouter({ ...deps, system: config.system, registry, openCredentials: (context, sealed) => vault.open(context, sealed), merchantOf: (id) => entities.merchantOf(id) });
  const routing = { ...deps, connectors, vault };
  const actor = cliActor();
  return {
    createRoute: (input) => withAudit(routing, actor, (scoped) => createRoute(withVaultInTransaction(scoped), input), routeChange('routes.create')),
    listRoutes: () => listRouteViews(routing),
    rotate: (routeId, credentials) => withAudit(routing, actor, (scoped) => rotateRouteCredentials(withVaultInTransaction(scoped), routeId, credentials), routeChange('routes.rotate-credentials')),
    disable: (routeId) => withAudit(routing, actor, (scoped) => disableRouteById(scoped, routeId), routeChange('routes.disable')),
    listConnectors: async () => registry.connectors.map((c) => ({ connectorId: c.id, liveCapable: c.liveCapable, status: c.status !== undefined })),
    listPending: (limit) => listPending(deps, limit),
    resolve: async (transactionId, outcome, reason) => {
      const resolved = await resolveManually(deps, { transactionId, outcome, reason });
      const entity = await storage.query<{ entity_id: string }>('SELECT entity_id FROM transactions WHERE id = $1', [transactionId]);
      await recordCompletedChange(deps, actor, { action: 'payments.resolve-pending', target: { kind: 'transaction', id: transactionId }, entityId: entity.rows[0]?.entity_id.trim() ?? null, before: { status: 'pending' }, after: { outcome, reason, result: resolved } });
      return resolved;
    },
    close: () => storage.close(),
  };
}
