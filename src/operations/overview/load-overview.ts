import type { Visibility } from '../../domain/access/actor.js';
import { overviewFigures, topMerchants, type DeclineRow, type OverviewFigures } from '../../domain/overview/overview-figures.js';
import type { OverviewRequest } from '../../domain/overview/overview-period.js';
import type { Queryable } from '../../storage/port.js';
import { listMerchants } from '../../storage/repositories/developer-entities.js';
import { overviewCells, pendingBacklog } from '../../storage/repositories/overview-rollup.js';
import { merchantEntityIds } from '../../storage/repositories/payment-search.js';

export interface Overview {
  readonly figures: OverviewFigures;
  readonly backlog: { readonly count: number; readonly oldest: Date | null };
  /** Entity id → name, for the channels and merchants the figures name. */
  readonly names: ReadonlyMap<string, string>;
  /** Operators only (unfiltered): the top merchants, keyed by merchant id. */
  readonly top: { readonly byVolume: readonly DeclineRow[]; readonly byDeclineRate: readonly DeclineRow[] } | undefined;
  /** Operators only: the merchants to filter by. */
  readonly merchants: readonly { readonly id: string; readonly name: string }[] | undefined;
}

/** An operator's filter names no merchant. */
export class UnknownMerchantError extends Error {
  constructor() {
    super('no such merchant');
    this.name = 'UnknownMerchantError';
  }
}

async function entitiesOf(db: Queryable, ids: readonly string[]): Promise<Map<string, { name: string; merchantId: string }>> {
  const { rows } = await db.query<{ id: string; name: string; merchant: string }>(
    `SELECT id, name, coalesce(merchant_id, id) AS merchant FROM entities WHERE id = ANY($1::char(32)[]) OR id IN (SELECT merchant_id FROM entities WHERE id = ANY($1::char(32)[]))`,
    [ids]);
  return new Map(rows.map((row) => [row.id, { name: row.name, merchantId: row.merchant }]));
}

/**
 * The overview of the period for the person: a merchant's people see their merchant's entities
 * only (the SQL's own WHERE); operators see every entity, or one merchant's when they filter.
 */
export async function loadOverview(deps: { readonly storage: Queryable }, visibility: Visibility, request: OverviewRequest): Promise<Overview> {
  const merchantId = visibility.kind === 'merchant' ? visibility.merchantId : request.merchantId;
  const entityIds = merchantId === undefined ? null : await merchantEntityIds(deps.storage, merchantId);
  if (entityIds !== null && entityIds.length === 0) throw new UnknownMerchantError();
  const cells = await overviewCells(deps.storage, { from: request.from, to: request.to, entityIds });
  const entities = await entitiesOf(deps.storage, [...new Set(cells.map((cell) => cell.entityId))]);
  const operator = visibility.kind === 'all';
  return {
    figures: overviewFigures(cells),
    backlog: await pendingBacklog(deps.storage, entityIds),
    names: new Map([...entities.entries()].map(([id, entity]) => [id, entity.name])),
    top: operator && merchantId === undefined ? topMerchants(cells, (id) => entities.get(id)?.merchantId ?? id) : undefined,
    merchants: operator ? await listMerchants(deps.storage) : undefined,
  };
}
