import { routeContext } from '../../connectors/default-connectors.js';
import { isThreeDsServerRoute, THREE_DS_SERVER_ROUTE_KIND } from '../../connectors/emv3ds-server/route-settings.js';
import { checkThreeDsRouteCredentials } from './three-ds-route-input.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { findRoute, insertRoute, type StoredRoute } from '../../storage/repositories/connector-routes.js';
import { findEntity } from '../../storage/repositories/entities.js';
import { entityNotFound } from '../webhooks/webhook-errors.js';
import type { RoutingDeps } from './deps.js';
import { checkBrand, checkCredentials, checkCurrency, invalidRouteParameter } from './route-input.js';
import { routeView, type RouteView } from './route-view.js';

export interface CreateRouteInput {
  /** Defaults to the system this gateway runs. */
  readonly system?: string | undefined;
  readonly entityId?: string | undefined;
  readonly brand?: string | undefined;
  readonly currency?: string | undefined;
  readonly connectorId: string;
  readonly credentials?: Readonly<Record<string, unknown>> | undefined;
  /** A route of the same system that takes the payments this route's acquirer did not process. */
  readonly fallbackRouteId?: string | undefined;
}

function checkSystem(deps: RoutingDeps, value: string | undefined): 'test' | 'live' {
  const system = value ?? deps.connectors.system;
  if (system !== 'test' && system !== 'live') throw invalidRouteParameter('system', system, 'must be test or live');
  return system;
}

/**
 * A route for an entity (or every entity), a brand and a currency (or any) to a connector, with
 * its credentials sealed by the vault. A live route must lead to a connector that reaches an
 * acquirer: the simulators are refused here, and again by the router.
 */
/** A fallback must be an enabled route of the same system; one level only (its own fallback is not followed). */
async function checkFallback(deps: RoutingDeps, system: 'test' | 'live', fallbackRouteId: string | undefined): Promise<string | null> {
  if (fallbackRouteId === undefined) return null;
  const fallback = await findRoute(deps.storage, fallbackRouteId);
  if (!fallback || fallback.disabledAt !== null || fallback.system !== system || isThreeDsServerRoute(fallback)) throw invalidRouteParameter('fallback', fallbackRouteId, `must be an enabled ${system} route to an acquirer`);
  return fallback.id;
}

/** The acquirer connector a route leads to: one this gateway has, and on the live system one that reaches an acquirer. */
function checkConnector(deps: RoutingDeps, system: 'test' | 'live', connectorId: string): string {
  const connector = deps.connectors.registry.connectorById(connectorId);
  if (!connector) {
    const known = [...deps.connectors.registry.connectors.map((c) => c.id), THREE_DS_SERVER_ROUTE_KIND].join(', ');
    throw invalidRouteParameter('connector', connectorId, `no such connector; this gateway has: ${known}`);
  }
  if (system === 'live' && !connector.liveCapable) throw invalidRouteParameter('connector', connectorId, 'only simulates an acquirer: it cannot serve the live system');
  return connector.id;
}

/**
 * A 3DS server route (connector emv3ds-server) chooses the directory of the payments it matches,
 * with its settings and mutual TLS material in its credentials; it has no fallback and is no one's.
 */
export async function createRoute(deps: RoutingDeps, input: CreateRouteInput): Promise<RouteView> {
  const system = checkSystem(deps, input.system);
  const threeDs = input.connectorId === THREE_DS_SERVER_ROUTE_KIND;
  const connectorId = threeDs ? THREE_DS_SERVER_ROUTE_KIND : checkConnector(deps, system, input.connectorId);
  if (input.entityId !== undefined && !(await findEntity(deps.storage, input.entityId))) throw entityNotFound(input.entityId);
  const credentials = threeDs ? checkThreeDsRouteCredentials(input.credentials ?? {}) : checkCredentials(input.credentials ?? {});
  if (threeDs && input.fallbackRouteId !== undefined) throw invalidRouteParameter('fallback', input.fallbackRouteId, 'a 3DS server route has no fallback');
  const fallbackRouteId = await checkFallback(deps, system, input.fallbackRouteId);
  const id = deps.ids.id();
  const now = deps.clock.now();
  const names = Object.keys(credentials).sort();
  const route: StoredRoute = {
    id,
    system,
    entityId: input.entityId ?? null,
    paymentBrand: checkBrand(input.brand),
    currency: checkCurrency(input.currency),
    connectorId,
    credentialNames: names,
    sealedCredentials: names.length > 0 ? await deps.vault.seal(routeContext(id), credentials) : null,
    createdAt: now,
    updatedAt: now,
    disabledAt: null,
    fallbackRouteId,
  };
  try {
    await insertRoute(deps.storage, route);
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidRouteParameter('route', '', 'an enabled route for this system, entity, brand and currency exists; disable it first');
    throw error;
  }
  deps.connectors.routes.invalidate();
  return routeView(route);
}
