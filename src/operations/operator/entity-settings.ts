import type { Actor } from '../../domain/access/actor.js';
import type { Clock } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { Storage } from '../../storage/port.js';
import { setConnectorDetails } from '../admin/set-connector-details.js';
import { setEntityLegacyAuth } from '../admin/set-legacy-auth.js';
import { setThreeDSecure } from '../admin/set-three-d-secure.js';
import { setThrottling } from '../admin/set-throttling.js';
import { setUnknownParameters } from '../admin/set-unknown-parameters.js';
import { withAudit } from '../audit/audited.js';
import { entitySettingChange } from '../audit/entity-snapshot.js';

/** The settings an operator changes on an entity's page: each the admin API's operation, audited alike. */
export const ENTITY_SETTINGS = ['three-d-secure', 'legacy-auth', 'unknown-parameters', 'connector-details', 'throttling'] as const;
export type EntitySetting = (typeof ENTITY_SETTINGS)[number];

export function isEntitySetting(value: string): value is EntitySetting {
  return (ENTITY_SETTINGS as readonly string[]).includes(value);
}

export interface EntitySettingDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  /** What the process caches about an entity, dropped at once after a change (the others catch up within their cache's time). */
  readonly forget: { readonly principal: (entityId: string) => void; readonly settings: (entityId: string) => void; readonly threeDSecure: (entityId: string) => void };
}

/** The form field each setting's value comes in, named as in the admin API. */
export const SETTING_FIELD: Readonly<Record<EntitySetting, string>> = { 'three-d-secure': 'requirement', 'legacy-auth': 'enabled', 'unknown-parameters': 'mode', 'connector-details': 'enabled', throttling: 'maxRequests' };

function onOrOff(value: string): boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'enabled', value: maskPanLikeDigits(value).slice(0, 64), message: 'must be true or false' }] });
}

function apply(deps: EntitySettingDeps, entityId: string, setting: EntitySetting, value: string): Promise<unknown> {
  switch (setting) {
    case 'three-d-secure':
      return setThreeDSecure(deps, entityId, value);
    case 'legacy-auth':
      return setEntityLegacyAuth(deps, entityId, onOrOff(value));
    case 'unknown-parameters':
      return setUnknownParameters(deps, entityId, value);
    case 'connector-details':
      return setConnectorDetails(deps, entityId, onOrOff(value));
    case 'throttling':
      return setThrottling(deps, entityId, value);
  }
}

/** Dropped once the change has committed, so no request can cache the value it replaces meanwhile. */
function forgetCached(deps: EntitySettingDeps, entityId: string, setting: EntitySetting): void {
  if (setting === 'three-d-secure') deps.forget.threeDSecure(entityId);
  else if (setting === 'legacy-auth') deps.forget.principal(entityId);
  else deps.forget.settings(entityId);
}

/**
 * Changes one setting of an entity the way PUT/POST /admin/entities/:id/<setting> does: the same
 * operation, the same audit entry (entities.<setting>, the entity's settings before and after).
 */
export async function changeEntitySetting(deps: EntitySettingDeps, actor: Actor, entityId: string, setting: EntitySetting, value: string): Promise<unknown> {
  const changed = await withAudit(deps, actor, (scoped) => apply(scoped, entityId, setting, value), entitySettingChange(`entities.${setting}`, entityId));
  forgetCached(deps, entityId, setting);
  return changed;
}
