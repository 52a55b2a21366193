import { listEntities as listRows } from '../../storage/repositories/entities.js';
import type { OperationDeps } from '../deps.js';

export interface EntitySummary {
  readonly entityId: string;
  readonly kind: 'merchant' | 'channel';
  readonly name: string;
  readonly merchantId: string | null;
  readonly createdAt: string;
}

export async function listEntities(deps: Pick<OperationDeps, 'storage'>): Promise<EntitySummary[]> {
  const rows = await listRows(deps.storage);
  return rows.map((e) => ({ entityId: e.id, kind: e.kind, name: e.name, merchantId: e.merchantId, createdAt: e.createdAt.toISOString() }));
}
