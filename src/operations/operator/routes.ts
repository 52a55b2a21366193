import type { Actor } from '../../domain/access/actor.js';
import { routeChange } from '../audit/admin-changes.js';
import { withAudit, withVaultInTransaction } from '../audit/audited.js';
import { disableRouteById, rotateRouteCredentials } from '../routing/change-route.js';
import { createRoute, type CreateRouteInput } from '../routing/create-route.js';
import type { RoutingDeps } from '../routing/deps.js';
import type { RouteView } from '../routing/route-view.js';

/**
 * The route changes of the console's operator area: the admin API's operations (POST /admin/routes,
 * …/credentials, …/disable) with the same audit entries (routes.create, routes.rotate-credentials,
 * routes.disable: the route's view, credential names and never their values).
 */
export function createRouteAsOperator(deps: RoutingDeps, actor: Actor, input: CreateRouteInput): Promise<RouteView> {
  return withAudit(deps, actor, (scoped) => createRoute(withVaultInTransaction(scoped), input), routeChange('routes.create'));
}

export function rotateRouteCredentialsAsOperator(deps: RoutingDeps, actor: Actor, routeId: string, credentials: Readonly<Record<string, unknown>>): Promise<RouteView> {
  return withAudit(deps, actor, (scoped) => rotateRouteCredentials(withVaultInTransaction(scoped), routeId, credentials), routeChange('routes.rotate-credentials'));
}

export function disableRouteAsOperator(deps: RoutingDeps, actor: Actor, routeId: string): Promise<RouteView> {
  return withAudit(deps, actor, (scoped) => disableRouteById(scoped, routeId), routeChange('routes.disable'));
}
