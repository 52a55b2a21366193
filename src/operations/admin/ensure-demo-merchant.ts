import { countEntities } from '../../storage/repositories/entities.js';
import type { OperationDeps } from '../deps.js';
import { createEntity, type CreatedEntity } from './create-entity.js';

/**
 * On the test system, an empty database gets a demo merchant so a newcomer can pay right after
 * `npm start`. Returns undefined when entities exist already (the token was shown at first start).
 */
export async function ensureDemoMerchant(deps: OperationDeps): Promise<CreatedEntity | undefined> {
  if ((await countEntities(deps.storage)) > 0) return undefined;
  return createEntity(deps, { name: 'Demo merchant' });
}
