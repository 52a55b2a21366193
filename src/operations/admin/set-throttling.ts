import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import { updateThrottleMaxRequests } from '../../storage/repositories/entity-settings.js';
import type { OperationDeps } from '../deps.js';

/** The bounds of THROTTLE_MAX_REQUESTS (load-config.ts), so an entity's limit is one the gateway could have. */
export const THROTTLE_MAX_REQUESTS_MIN = 1;
export const THROTTLE_MAX_REQUESTS_MAX = 10_000_000;
/** The value that removes the entity's own limit (the console's empty field means the same). */
export const GATEWAY_DEFAULT = 'default';

export interface ThrottlingSetting {
  readonly entityId: string;
  /** Requests per THROTTLE_WINDOW_MS for each of the entity's access tokens; null: THROTTLE_MAX_REQUESTS. */
  readonly throttleMaxRequests: number | null;
}

/** A whole number within the bounds, or null for `default` (or nothing typed). */
export function parseThrottleLimit(value: string): number | null {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === GATEWAY_DEFAULT) return null;
  const limit = /^\d{1,8}$/.test(trimmed) ? Number(trimmed) : NaN;
  if (limit >= THROTTLE_MAX_REQUESTS_MIN && limit <= THROTTLE_MAX_REQUESTS_MAX) return limit;
  throw new GatewayError('200.300.404', {
    parameterErrors: [{ name: 'maxRequests', value: maskPanLikeDigits(value).slice(0, 64), message: `must be a whole number from ${THROTTLE_MAX_REQUESTS_MIN} to ${THROTTLE_MAX_REQUESTS_MAX}, or ${GATEWAY_DEFAULT}` }],
  });
}

/**
 * Sets how many requests each access token of the entity may make per THROTTLE_WINDOW_MS, lower
 * or higher than the gateway's THROTTLE_MAX_REQUESTS, or (`default`) the gateway's again. A
 * merchant token acting for a channel counts against the merchant's limit: the token's entity.
 */
export async function setThrottling(deps: Pick<OperationDeps, 'storage'>, entityId: string, value: string): Promise<ThrottlingSetting> {
  const limit = parseThrottleLimit(value);
  if (!ENTITY_ID_PATTERN.test(entityId) || !(await updateThrottleMaxRequests(deps.storage, entityId, limit))) {
    throw new GatewayError('200.300.406', {
      httpStatus: 404,
      parameterErrors: [{ name: 'entity', value: maskPanLikeDigits(entityId).slice(0, 64), message: 'no entity has this id' }],
    });
  }
  return { entityId, throttleMaxRequests: limit };
}
