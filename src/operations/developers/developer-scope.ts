import type { Actor, Visibility } from '../../domain/access/actor.js';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { Queryable } from '../../storage/port.js';
import { listMerchantEntities, merchantOf, type DeveloperEntity } from '../../storage/repositories/developer-entities.js';

/** Who acts in the developers' pages: the audit log's actor and what the person may see. */
export interface DeveloperActor {
  readonly actor: Actor;
  readonly visibility: Visibility;
}

/**
 * Something the person may not see answers exactly as something that does not exist (404), so a
 * merchant's person cannot learn by probing which ids another merchant has.
 */
export function notVisible(name: string, value: string): GatewayError {
  return new GatewayError('200.300.406', {
    httpStatus: 404,
    parameterErrors: [{ name, value: maskPanLikeDigits(value).slice(0, 64), message: `no ${name === 'entity' || name === 'merchant' ? 'entity' : name} you may see has this id` }],
  });
}

/**
 * The merchant whose developer settings a page shows: a merchant's person always their own, an
 * operator the one they picked (undefined until they pick one).
 */
export async function merchantInScope(db: Queryable, visibility: Visibility, picked: string | undefined): Promise<string | undefined> {
  if (visibility.kind === 'merchant') return visibility.merchantId;
  if (picked === undefined || picked === '') return undefined;
  if (!ENTITY_ID_PATTERN.test(picked) || (await merchantOf(db, picked)) !== picked) throw notVisible('merchant', picked);
  return picked;
}

/** The merchant and its channels, as the person may see them. */
export async function entitiesInScope(db: Queryable, visibility: Visibility, merchantId: string): Promise<DeveloperEntity[]> {
  if (visibility.kind === 'merchant' && visibility.merchantId !== merchantId) throw notVisible('merchant', merchantId);
  return listMerchantEntities(db, merchantId);
}

/** Refuses (404) an entity outside what the person may see; answers its merchant. */
export async function requireVisibleEntity(db: Queryable, visibility: Visibility, entityId: string, name = 'entity'): Promise<string> {
  const merchant = ENTITY_ID_PATTERN.test(entityId) ? await merchantOf(db, entityId) : undefined;
  if (merchant === undefined || (visibility.kind === 'merchant' && visibility.merchantId !== merchant)) throw notVisible(name, entityId);
  return merchant;
}
