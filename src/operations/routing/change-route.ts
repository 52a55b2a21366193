import { routeContext } from '../../connectors/default-connectors.js';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { GatewayError } from '../../results/gateway-error.js';
import { isThreeDsServerRoute } from '../../connectors/emv3ds-server/route-settings.js';
import { disableRoute, findRoute, listRoutes, replaceRouteCredentials } from '../../storage/repositories/connector-routes.js';
import type { RoutingDeps } from './deps.js';
import { checkCredentials } from './route-input.js';
import { checkThreeDsRouteCredentials } from './three-ds-route-input.js';
import { routeView, type RouteView } from './route-view.js';

function routeNotFound(id: string): GatewayError {
  return new GatewayError('200.300.404', { httpStatus: 404, parameterErrors: [{ name: 'routeId', value: id.slice(0, 64), message: 'no route has this id' }] });
}

function checkRouteId(id: string): string {
  if (!ENTITY_ID_PATTERN.test(id)) throw routeNotFound(id);
  return id;
}

export async function listRouteViews(deps: Pick<RoutingDeps, 'storage'>): Promise<RouteView[]> {
  return (await listRoutes(deps.storage)).map(routeView);
}

/**
 * Replaces a route's credentials (a rotation without downtime): payments already on their way
 * finish with the credentials they started with; new ones use the new credentials at once in
 * this process and within ROUTE_CACHE_MS in the others.
 */
export async function rotateRouteCredentials(deps: RoutingDeps, routeId: string, raw: Readonly<Record<string, unknown>>): Promise<RouteView> {
  const id = checkRouteId(routeId);
  const current = await findRoute(deps.storage, id);
  if (!current) throw routeNotFound(id);
  const credentials = isThreeDsServerRoute(current) ? checkThreeDsRouteCredentials(raw) : checkCredentials(raw);
  const names = Object.keys(credentials).sort();
  const sealed = names.length > 0 ? await deps.vault.seal(routeContext(id), credentials) : null;
  const changed = await replaceRouteCredentials(deps.storage, { id, credentialNames: names, sealed, at: deps.clock.now() });
  if (!changed) throw routeNotFound(id);
  deps.connectors.routes.invalidate();
  return routeView(changed);
}

/** No new payment takes a disabled route; the payments it carried keep it for their follow-ups and status queries. */
export async function disableRouteById(deps: RoutingDeps, routeId: string): Promise<RouteView> {
  const changed = await disableRoute(deps.storage, checkRouteId(routeId), deps.clock.now());
  if (!changed) throw routeNotFound(routeId);
  deps.connectors.routes.invalidate();
  return routeView(changed);
}
