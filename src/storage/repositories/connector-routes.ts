import type { RouteRecord } from '../../domain/routing.js';
import type { SealedSecret } from '../../domain/vault/index.js';
import type { Queryable } from '../port.js';

/** A route as stored: the routing facts, the credentials' names, and the sealed credentials. */
export interface StoredRoute extends RouteRecord {
  readonly credentialNames: readonly string[];
  readonly sealedCredentials: SealedSecret | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

interface RouteRow {
  id: string;
  system: 'test' | 'live';
  entity_id: string | null;
  payment_brand: string | null;
  currency: string | null;
  connector_id: string;
  credential_names: string[];
  data_key_id: string | null;
  sealed_credentials: Uint8Array | null;
  created_at: Date;
  updated_at: Date;
  disabled_at: Date | null;
  fallback_route_id: string | null;
}

function toStored(row: RouteRow): StoredRoute {
  return {
    id: row.id,
    system: row.system,
    entityId: row.entity_id,
    paymentBrand: row.payment_brand,
    currency: row.currency,
    connectorId: row.connector_id,
    credentialNames: row.credential_names,
    sealedCredentials: row.data_key_id && row.sealed_credentials ? { dataKeyId: row.data_key_id, sealed: Buffer.from(row.sealed_credentials) } : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    disabledAt: row.disabled_at,
    fallbackRouteId: row.fallback_route_id ?? null,
  };
}

export async function insertRoute(db: Queryable, route: StoredRoute): Promise<void> {
  await db.query(
    `INSERT INTO connector_routes (id, system, entity_id, payment_brand, currency, connector_id, credential_names, data_key_id, sealed_credentials, created_at, updated_at, fallback_route_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [route.id, route.system, route.entityId, route.paymentBrand, route.currency, route.connectorId, [...route.credentialNames],
      route.sealedCredentials?.dataKeyId ?? null, route.sealedCredentials?.sealed ?? null, route.createdAt, route.updatedAt, route.fallbackRouteId ?? null],
  );
}

/** Every route, disabled ones too (they still serve the follow-ups of the payments they carried). */
export async function listRoutes(db: Queryable): Promise<StoredRoute[]> {
  const { rows } = await db.query<RouteRow>('SELECT * FROM connector_routes ORDER BY created_at, id');
  return rows.map(toStored);
}

export async function findRoute(db: Queryable, id: string): Promise<StoredRoute | undefined> {
  const { rows } = await db.query<RouteRow>('SELECT * FROM connector_routes WHERE id = $1', [id]);
  return rows[0] ? toStored(rows[0]) : undefined;
}

/** Replaces a route's credentials (a rotation); answers the route, or undefined when there is none. */
export async function replaceRouteCredentials(
  db: Queryable,
  change: { id: string; credentialNames: readonly string[]; sealed: SealedSecret | null; at: Date },
): Promise<StoredRoute | undefined> {
  const { rows } = await db.query<RouteRow>(
    `UPDATE connector_routes SET credential_names = $2, data_key_id = $3, sealed_credentials = $4, updated_at = $5 WHERE id = $1 RETURNING *`,
    [change.id, [...change.credentialNames], change.sealed?.dataKeyId ?? null, change.sealed?.sealed ?? null, change.at],
  );
  return rows[0] ? toStored(rows[0]) : undefined;
}

export async function disableRoute(db: Queryable, id: string, at: Date): Promise<StoredRoute | undefined> {
  const { rows } = await db.query<RouteRow>(
    `UPDATE connector_routes SET disabled_at = COALESCE(disabled_at, $2), updated_at = $2 WHERE id = $1 RETURNING *`,
    [id, at],
  );
  return rows[0] ? toStored(rows[0]) : undefined;
}
