import type { Actor } from '../../domain/access/actor.js';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import { findEntityWithSettings, listEntitiesUnder, listEntitiesWithSettings, type EntityWithSettings } from '../../storage/repositories/operator-entities.js';
import type { Queryable } from '../../storage/port.js';
import { createEntity, type CreateEntityInput, type CreatedEntity } from '../admin/create-entity.js';
import { entityCreated } from '../audit/admin-changes.js';
import { withAudit } from '../audit/audited.js';
import type { OperationDeps } from '../deps.js';
import { listRoutes } from '../../storage/repositories/connector-routes.js';
import { routeView, type RouteView } from '../routing/route-view.js';

export interface EntityDetail {
  readonly entity: EntityWithSettings;
  /** Its merchant (for a channel) or parent (for a merchant or division). */
  readonly above: EntityWithSettings | undefined;
  /** A merchant's channels; the merchants or divisions under a PSP or division. */
  readonly below: readonly EntityWithSettings[];
  /** The routes that name this entity (routes for every entity are listed on the routes page). */
  readonly routes: readonly RouteView[];
}

export function listOperatorEntities(db: Queryable): Promise<EntityWithSettings[]> {
  return listEntitiesWithSettings(db);
}

function entityNotFound(entityId: string): GatewayError {
  return new GatewayError('200.300.406', { httpStatus: 404, parameterErrors: [{ name: 'entity', value: maskPanLikeDigits(entityId).slice(0, 64), message: 'no entity has this id' }] });
}

export async function loadEntityDetail(db: Queryable, entityId: string): Promise<EntityDetail> {
  const entity = ENTITY_ID_PATTERN.test(entityId) ? await findEntityWithSettings(db, entityId) : undefined;
  if (!entity) throw entityNotFound(entityId);
  const aboveId = entity.merchantId ?? entity.parentId;
  const above = aboveId ? await findEntityWithSettings(db, aboveId) : undefined;
  const below = entity.kind === 'channel' ? [] : await listEntitiesUnder(db, entity.id);
  const routes = (await listRoutes(db)).filter((route) => route.entityId?.trim() === entity.id).map(routeView);
  return { entity, above, below, routes };
}

/** POST /admin/entities from the console: the same operation and audit entry (entities.create); the first token is shown once. */
export function createEntityAsOperator(deps: OperationDeps, actor: Actor, input: CreateEntityInput): Promise<CreatedEntity> {
  return withAudit(deps, actor, (scoped) => createEntity(scoped, input), entityCreated(input));
}
