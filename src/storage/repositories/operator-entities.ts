import type { Queryable } from '../port.js';
import type { EntityKind } from './entities.js';

/** An entity with the settings an operator changes on its console page. */
export interface EntityWithSettings {
  readonly id: string;
  readonly kind: EntityKind;
  readonly name: string;
  readonly merchantId: string | null;
  readonly parentId: string | null;
  readonly createdAt: Date;
  readonly threeDSecure: string;
  readonly legacyAuth: boolean;
  readonly unknownParameters: string;
  readonly showConnectorDetails: boolean;
  /** Requests per THROTTLE_WINDOW_MS for each of its tokens; null: the gateway's THROTTLE_MAX_REQUESTS. */
  readonly throttleMaxRequests: number | null;
  /** Access tokens not revoked. */
  readonly activeTokens: number;
}

interface Row {
  id: string; kind: EntityKind; name: string; merchant_id: string | null; parent_id: string | null; created_at: Date;
  three_d_secure: string; legacy_auth: boolean; unknown_parameters: string; show_connector_details: boolean; throttle_max_requests: number | null; active_tokens: number | bigint;
}

const SELECT = `SELECT e.id, e.kind, e.name, e.merchant_id, e.parent_id, e.created_at, e.three_d_secure, e.legacy_auth, e.unknown_parameters, e.show_connector_details, e.throttle_max_requests,
                       (SELECT count(*) FROM access_tokens t WHERE t.entity_id = e.id AND t.revoked_at IS NULL) AS active_tokens
                  FROM entities e`;

function toEntity(row: Row): EntityWithSettings {
  return {
    id: row.id.trim(), kind: row.kind, name: row.name, merchantId: row.merchant_id?.trim() ?? null, parentId: row.parent_id?.trim() ?? null, createdAt: new Date(row.created_at),
    threeDSecure: row.three_d_secure, legacyAuth: row.legacy_auth, unknownParameters: row.unknown_parameters, showConnectorDetails: row.show_connector_details, throttleMaxRequests: row.throttle_max_requests === null ? null : Number(row.throttle_max_requests), activeTokens: Number(row.active_tokens),
  };
}

/** Every entity, each merchant followed by its channels (the console's list groups them so). */
export async function listEntitiesWithSettings(db: Queryable): Promise<EntityWithSettings[]> {
  const { rows } = await db.query<Row>(`${SELECT} ORDER BY COALESCE(e.merchant_id, e.id), e.kind = 'channel', e.created_at, e.id`);
  return rows.map(toEntity);
}

export async function findEntityWithSettings(db: Queryable, id: string): Promise<EntityWithSettings | undefined> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE e.id = $1`, [id]);
  return rows[0] ? toEntity(rows[0]) : undefined;
}

/** A merchant's channels, or the merchants under a PSP or division. */
export async function listEntitiesUnder(db: Queryable, id: string): Promise<EntityWithSettings[]> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE e.merchant_id = $1 OR e.parent_id = $1 ORDER BY e.created_at, e.id`, [id]);
  return rows.map(toEntity);
}
