import type { StoredRoute } from '../../storage/repositories/connector-routes.js';
import type { OpenRoute } from '../../connectors/route-table.js';

/** A route as operators see it: everything but the credentials' values. */
export interface RouteView {
  readonly routeId: string;
  readonly system: 'test' | 'live';
  readonly entityId: string | null;
  readonly paymentBrand: string | null;
  readonly currency: string | null;
  readonly connectorId: string;
  readonly credentialNames: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly disabledAt: string | null;
  readonly fallbackRouteId: string | null;
}

export function routeView(route: StoredRoute | OpenRoute): RouteView {
  return {
    routeId: route.id,
    system: route.system,
    entityId: route.entityId,
    paymentBrand: route.paymentBrand,
    currency: route.currency,
    connectorId: route.connectorId,
    credentialNames: [...route.credentialNames],
    createdAt: route.createdAt.toISOString(),
    updatedAt: route.updatedAt.toISOString(),
    disabledAt: route.disabledAt?.toISOString() ?? null,
    fallbackRouteId: route.fallbackRouteId ?? null,
  };
}
