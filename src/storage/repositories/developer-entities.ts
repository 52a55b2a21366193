import type { Queryable } from '../port.js';

/** A merchant or one of its channels, as the developers' pages name it. */
export interface DeveloperEntity {
  readonly id: string;
  readonly kind: 'merchant' | 'channel';
  readonly name: string;
  /** Whether it accepts OPPWA's authentication.* fields (migration 016). */
  readonly legacyAuth: boolean;
}

/** The merchant first, then its channels by creation; empty when `merchantId` is not a merchant. */
export async function listMerchantEntities(db: Queryable, merchantId: string): Promise<DeveloperEntity[]> {
  const { rows } = await db.query<{ id: string; kind: 'merchant' | 'channel'; name: string; legacy_auth: boolean }>(
    `SELECT id, kind, name, legacy_auth FROM entities
      WHERE (id = $1 AND kind = 'merchant') OR (merchant_id = $1 AND kind = 'channel'
        AND EXISTS (SELECT 1 FROM entities m WHERE m.id = $1 AND m.kind = 'merchant'))
      ORDER BY kind = 'channel', created_at, id`,
    [merchantId],
  );
  return rows.map((r) => ({ id: r.id.trim(), kind: r.kind, name: r.name, legacyAuth: r.legacy_auth }));
}

/** Every merchant, for an operator to pick one. */
export async function listMerchants(db: Queryable): Promise<{ readonly id: string; readonly name: string }[]> {
  const { rows } = await db.query<{ id: string; name: string }>("SELECT id, name FROM entities WHERE kind = 'merchant' ORDER BY name, id");
  return rows.map((r) => ({ id: r.id.trim(), name: r.name }));
}

/** The merchant an entity is or belongs to; undefined for an unknown entity or one above merchants. */
export async function merchantOf(db: Queryable, entityId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ merchant: string | null }>(
    "SELECT CASE WHEN kind = 'merchant' THEN id WHEN kind = 'channel' THEN merchant_id END AS merchant FROM entities WHERE id = $1",
    [entityId],
  );
  return rows[0]?.merchant?.trim() ?? undefined;
}

/** The entity an access token belongs to (revoked or not). */
export async function entityOfAccessToken(db: Queryable, tokenId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ entity_id: string }>('SELECT entity_id FROM access_tokens WHERE id = $1', [tokenId]);
  return rows[0]?.entity_id.trim();
}

/** The entity of a webhook that is not deleted. */
export async function entityOfWebhook(db: Queryable, webhookId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ entity_id: string }>('SELECT entity_id FROM webhooks WHERE id = $1 AND deleted_at IS NULL', [webhookId]);
  return rows[0]?.entity_id.trim();
}

/** The webhook a delivery went to (undefined for a notificationUrl's delivery or an unknown id). */
export async function webhookOfDelivery(db: Queryable, deliveryId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ webhook_id: string | null }>('SELECT webhook_id FROM webhook_deliveries WHERE id = $1', [deliveryId]);
  return rows[0]?.webhook_id?.trim() ?? undefined;
}
