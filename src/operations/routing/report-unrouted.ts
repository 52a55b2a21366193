import { unroutedEntities, type UnroutedEntity } from '../../domain/routing.js';
import type { Queryable } from '../../storage/port.js';
import { listRoutes } from '../../storage/repositories/connector-routes.js';
import { isThreeDsServerRoute } from '../../connectors/emv3ds-server/route-settings.js';
import { listEntities } from '../../storage/repositories/entities.js';

/**
 * The entities whose payments the live system would refuse (no route, or routes for some brands
 * or currencies only), for the log at start: an operator sees the gap before a merchant does.
 */
export async function reportUnroutedEntities(db: Queryable, system: 'test' | 'live'): Promise<UnroutedEntity[]> {
  const [entities, routes] = await Promise.all([listEntities(db), listRoutes(db)]);
  // A 3DS server route serves no payment with an acquirer.
  return unroutedEntities(entities, routes.filter((route) => !isThreeDsServerRoute(route)), system);
}

/** Lines at most, so a gateway with many merchants does not flood its log; the count says the rest. */
const REPORT_LINES_MAX = 100;

/** Logs, at start of the live system, every entity whose payments would be refused for want of a route. */
export async function logUnroutedEntities(db: Queryable, logger: { warn(fields: object, message: string): void; info(fields: object, message: string): void }): Promise<void> {
  const unrouted = await reportUnroutedEntities(db, 'live');
  for (const entity of unrouted.slice(0, REPORT_LINES_MAX)) {
    const all = entity.routedBrands.length === 0 && entity.routedCurrencies.length === 0;
    logger.warn(
      { entityId: entity.entityId, name: entity.name, routedBrands: entity.routedBrands, routedCurrencies: entity.routedCurrencies },
      all ? 'no route: every live payment of this entity is refused (600.200.201)' : 'routes for some brands or currencies only: other live payments of this entity are refused (600.200.*)',
    );
  }
  if (unrouted.length > REPORT_LINES_MAX) logger.warn({ more: unrouted.length - REPORT_LINES_MAX }, 'more entities without a complete route');
  if (unrouted.length === 0) logger.info({}, 'every entity has a route for every brand and currency');
}
