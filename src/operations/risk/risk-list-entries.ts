import type { Visibility } from '../../domain/access/actor.js';
import { GatewayError } from '../../results/gateway-error.js';
import { listMerchants } from '../../storage/repositories/developer-entities.js';
import { deleteListEntryByHandle, insertChange, listEntriesWithHandles } from '../../storage/repositories/risk-config.js';
import type { OperationDeps } from '../deps.js';
import { entitiesInScope, merchantInScope, notVisible } from '../developers/developer-scope.js';
import { existingEntity, listNameOf, type RiskConfigDeps } from './configure-risk.js';

const HANDLE = /^[0-9a-f]{32}$/;

/**
 * Which entity a risk page is about, as a person may see it: an operator picks the merchant, a
 * merchant's person has theirs; the entity is the merchant (its entries and rules apply to its
 * channels) or one of its channels. Another merchant's entity answers as a missing one (404).
 */
export async function riskScopeOf(deps: Pick<OperationDeps, 'storage'>, visibility: Visibility, picked: { merchant: string; entity: string }) {
  const merchants = visibility.kind === 'all' ? await listMerchants(deps.storage) : undefined;
  const merchantId = await merchantInScope(deps.storage, visibility, picked.merchant || undefined);
  if (!merchantId) return { merchants, merchantId, entities: [], entityId: undefined };
  const entities = await entitiesInScope(deps.storage, visibility, merchantId);
  const entityId = picked.entity ? picked.entity : merchantId;
  if (!entities.some((e) => e.id === entityId)) throw notVisible('entity', entityId);
  return { merchants, merchantId, entities, entityId };
}

/** The black- and whitelist of the entity in scope, each entry with the handle a page removes it by. */
export async function riskListsOf(deps: Pick<OperationDeps, 'storage'>, visibility: Visibility, picked: { merchant: string; entity: string }) {
  const scope = await riskScopeOf(deps, visibility, picked);
  if (!scope.entityId) return { ...scope, black: [], white: [] };
  const [black, white] = await Promise.all([listEntriesWithHandles(deps.storage, scope.entityId, 'black'), listEntriesWithHandles(deps.storage, scope.entityId, 'white')]);
  return { ...scope, black, white };
}

/**
 * Removes the entry a page names by its handle (a digest of kind and stored value): the console
 * never holds a listed card's number to send back. Recorded in the risk change record like the
 * admin API's removal by value.
 */
export async function removeRiskListEntryByHandle(deps: RiskConfigDeps, input: { entityId: string; list: string; handle: string; changedBy: string }) {
  const entityId = await existingEntity(deps, input.entityId);
  const list = listNameOf(input.list);
  if (!HANDLE.test(input.handle)) throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'entry', value: '', message: 'the form is incomplete: reload the page and try again' }] });
  const now = deps.clock.now();
  const removed = await deps.storage.transaction(async (tx) => {
    const deleted = await deleteListEntryByHandle(tx, entityId, list, input.handle);
    if (deleted) await insertChange(tx, entityId, input.changedBy, now, `${list}list.remove`, deleted);
    return deleted;
  });
  if (!removed) throw new GatewayError('200.300.404', { httpStatus: 404, parameterErrors: [{ name: 'entry', value: '', message: 'the entry is no longer on the list' }] });
  return { entityId, list, kind: removed.kind, shown: removed.shown, removed: true };
}
