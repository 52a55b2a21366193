import type { Visibility } from '../../domain/access/actor.js';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import type { Queryable } from '../../storage/port.js';
import { entityOfWebhook, webhookOfDelivery } from '../../storage/repositories/developer-entities.js';
import { notVisible, requireVisibleEntity } from './developer-scope.js';

/** The webhook's entity and merchant, when the person may see it; else 404 as for an unknown id. */
export async function requireVisibleWebhook(db: Queryable, visibility: Visibility, webhookId: string): Promise<{ entityId: string; merchantId: string }> {
  const entityId = ENTITY_ID_PATTERN.test(webhookId) ? await entityOfWebhook(db, webhookId) : undefined;
  if (entityId === undefined) throw notVisible('webhookId', webhookId);
  const merchantId = await requireVisibleEntity(db, visibility, entityId).catch(() => {
    throw notVisible('webhookId', webhookId);
  });
  return { entityId, merchantId };
}

/** A delivery to a webhook the person may see (a notificationUrl's delivery has no webhook: not shown here). */
export async function requireVisibleDelivery(db: Queryable, visibility: Visibility, deliveryId: string): Promise<{ webhookId: string; merchantId: string }> {
  const webhookId = ENTITY_ID_PATTERN.test(deliveryId) ? await webhookOfDelivery(db, deliveryId) : undefined;
  if (webhookId === undefined) throw notVisible('deliveryId', deliveryId);
  const { merchantId } = await requireVisibleWebhook(db, visibility, webhookId).catch(() => {
    throw notVisible('deliveryId', deliveryId);
  });
  return { webhookId, merchantId };
}
